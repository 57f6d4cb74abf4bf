"""Lambda entry point of the alert topic's chat-webhook subscriber (the work is in skymarshal.handlers.alerts)."""

from skymarshal.handlers.alerts import webhook

__all__ = ["webhook"]
