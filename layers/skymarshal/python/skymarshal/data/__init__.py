"""Operational data: table schema, access guard, query patterns, generator, loader."""
