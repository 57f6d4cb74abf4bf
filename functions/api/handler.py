"""Lambda entry point of the duty manager API (the work is in skymarshal.handlers.api)."""

from skymarshal.handlers.api import handler

__all__ = ["handler"]
