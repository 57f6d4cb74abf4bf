"""Lambda entry points of the workflow's steps (the work is in skymarshal.handlers.steps)."""

from skymarshal.handlers.steps import arbitrate, collate, execute, learn, request_approval, trigger, validate

__all__ = ["arbitrate", "collate", "execute", "learn", "request_approval", "trigger", "validate"]
