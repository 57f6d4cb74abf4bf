"""Lambda entry point of the maintenance agent (the work is in skymarshal.handlers.agent)."""

from skymarshal.handlers.agent import make_agent_handler

handler = make_agent_handler("maintenance")
