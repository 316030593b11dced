"""Pieces of the synthetic training-document generator."""
