"""Lambda entry points of the workflow's steps (the work is in skymarshal.handlers.workflow_steps)."""

from skymarshal.handlers.workflow_steps import arbitrate, collate, execute, learn, request_approval, trigger, validate

__all__ = ["arbitrate", "collate", "execute", "learn", "request_approval", "trigger", "validate"]
