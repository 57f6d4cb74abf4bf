"""Behaviour config validation, environment settings and the chat-model resolution order."""

from __future__ import annotations

import json

import langchain_aws
import pytest

from skymarshal.assistant.config import (AssistantConfigError, AssistantSettings, load_behaviour,
                                         resolve_chat_model)


class _Recorder:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


def test_resolution_order(monkeypatch, behaviour):
    passed = object()
    assert resolve_chat_model("planner", behaviour, passed, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock"}) is passed
    assert resolve_chat_model("planner", behaviour, None, env={}) is None  # offline is the default
    monkeypatch.setattr(langchain_aws, "ChatBedrockConverse", _Recorder)
    configured = resolve_chat_model("comparison_formatter", behaviour, None, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock"})
    assert configured.kwargs == {"model": behaviour.comparison_formatter.model_id, "temperature": 0.2,
                                 "max_tokens": 1500}
    overridden = resolve_chat_model("planner", behaviour, None, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock",
                                                                     "SKYMARSHAL_ASSISTANT_PLANNER_MODEL": "my-model"})
    assert overridden.kwargs["model"] == "my-model"


def test_a_missing_model_is_a_clear_error(behaviour):
    bare = behaviour.model_copy(update={"planner": behaviour.planner.model_copy(update={"model_id": None})})
    with pytest.raises(AssistantConfigError, match="SKYMARSHAL_ASSISTANT_PLANNER_MODEL"):
        resolve_chat_model("planner", bare, None, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock"})


@pytest.mark.parametrize(("change", "message"), [
    ({"retrieval": {"top_k": 0}}, "retrieval.top_k"),
    ({"features": {"reranking": "sometimes"}}, "features.reranking"),
    ({"planner": {"prompt": "planner.md", "temperature": 3}}, "planner.temperature"),
    ({"surprise": 1}, "surprise"),
])
def test_behaviour_errors_name_the_setting(tmp_path, change, message):
    config = json.loads(load_behaviour().model_dump_json())
    config.update(change)
    file = tmp_path / "assistant.json"
    file.write_text(json.dumps(config))
    with pytest.raises(AssistantConfigError, match=message):
        load_behaviour(str(file))


def test_unreadable_or_invalid_json_config(tmp_path):
    with pytest.raises(AssistantConfigError, match="cannot read assistant config"):
        load_behaviour(str(tmp_path / "missing.json"))
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(AssistantConfigError, match="is not JSON"):
        load_behaviour(str(tmp_path / "bad.json"))


def test_settings_from_the_environment():
    settings = AssistantSettings.from_env({"SKYMARSHAL_ASSISTANT_CHECKPOINTER": "SQLite",
                                           "SKYMARSHAL_ASSISTANT_SQLITE_PATH": "/tmp/x.sqlite",
                                           "SKYMARSHAL_ASSISTANT_ENABLED": "false"})
    assert (settings.checkpointer, str(settings.sqlite_path), settings.enabled) == ("sqlite", "/tmp/x.sqlite", False)
    assert AssistantSettings.from_env({}).checkpointer == "memory"
    with pytest.raises(AssistantConfigError, match="memory, sqlite or none"):
        AssistantSettings.from_env({"SKYMARSHAL_ASSISTANT_CHECKPOINTER": "redis"})
