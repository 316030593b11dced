"""Detectors: each turns normalised text into candidate spans."""
