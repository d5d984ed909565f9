"""Verifiers turn a recorded trajectory into a verdict (process, result, taxonomy)."""
