"""Benchmarks (`make bench`): figures printed, never asserted in unit tests."""
