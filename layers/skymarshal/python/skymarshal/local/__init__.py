"""Local AWS: an emulated account (moto) with the same tables, seeded with the synthetic airline."""
