"""Pydantic models at every boundary: operational rows, reference data, findings, messages."""
