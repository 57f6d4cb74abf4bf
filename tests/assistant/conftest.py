"""Assistant fixtures: an offline assistant with no memory, and one with scripted chat models."""

from __future__ import annotations

import pytest

from skymarshal.assistant.config import AssistantSettings, load_behaviour
from skymarshal.assistant.graph import Assistant
from skymarshal.assistant.rules import load_rules
from skymarshal.assistant.tools import ToolContext


@pytest.fixture(autouse=True)
def _offline(monkeypatch):
    """Every assistant test starts offline, whatever the developer's shell says."""
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    for name in ("SKYMARSHAL_ASSISTANT_CHECKPOINTER", "SKYMARSHAL_ASSISTANT_CONFIG", "SKYMARSHAL_ASSISTANT_RULES"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="session")
def behaviour():
    return load_behaviour()


@pytest.fixture(scope="session")
def context(behaviour):
    return ToolContext(behaviour=behaviour, rules=load_rules())


@pytest.fixture
def offline_assistant():
    return Assistant(settings=AssistantSettings(checkpointer="none"))
