"""Validators for identifiers, one module each, in the style of python-stdnum."""
