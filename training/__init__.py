"""Model pipeline: base weights, synthetic data, tags, training, export (needs the `train` extra)."""
