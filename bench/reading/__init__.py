"""The reading bench: a seeded report corpus composed from the synthetic airline, with its truth, and the figures
of the reader that reads it (`make bench-reading`, `python -m bench.reading`)."""
