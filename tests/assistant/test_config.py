"""Behaviour config validation, environment settings and the chat-model resolution order."""

from __future__ import annotations

import json

import langchain_aws
import pytest

from skymarshal.assistant.config import AssistantConfigError, AssistantSettings, load_behaviour, resolve_chat_model


class _Recorder:
    def __init__(self, **kwargs):
        self.kwargs = kwargs


def test_resolution_order(monkeypatch, behaviour):
    passed = object()
    assert resolve_chat_model("planner", behaviour, passed, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock"}) is passed
    assert resolve_chat_model("planner", behaviour, None, env={}) is None  # offline is the default
    monkeypatch.setattr(langchain_aws, "ChatBedrockConverse", _Recorder)
    bedrock = {"SKYMARSHAL_LLM_PROVIDER": "bedrock", "AWS_REGION": "eu-west-1"}
    configured = resolve_chat_model("comparison_formatter", behaviour, None, env=bedrock)
    foundation = behaviour.comparison_formatter.model_id.split(".", 1)[1]
    assert {k: configured.kwargs[k] for k in ("model", "temperature", "max_tokens", "region_name")} == {
        "model": f"eu.{foundation}",
        "temperature": 0.2,
        "max_tokens": 1500,
        "region_name": "eu-west-1",
    }
    assert configured.kwargs["config"].read_timeout is not None  # every call bounded
    overridden = resolve_chat_model(
        "planner",
        behaviour,
        None,
        env={**bedrock, "SKYMARSHAL_ASSISTANT_PLANNER_MODEL": "global.anthropic.claude-haiku-4-5-20251001-v1:0"},
    )
    assert overridden.kwargs["model"] == "global.anthropic.claude-haiku-4-5-20251001-v1:0"


def test_a_bare_model_id_is_refused_on_one_line(behaviour):
    env = {
        "SKYMARSHAL_LLM_PROVIDER": "bedrock",
        "AWS_REGION": "us-east-1",
        "SKYMARSHAL_ASSISTANT_PLANNER_MODEL": "anthropic.claude-sonnet-4-5-20250929-v1:0",
    }
    with pytest.raises(AssistantConfigError, match="bare foundation-model id") as caught:
        resolve_chat_model("planner", behaviour, None, env=env)
    assert "\n" not in str(caught.value) and "global.anthropic.claude-sonnet-4-5" in str(caught.value)


def test_a_missing_model_is_a_clear_error(behaviour):
    bare = behaviour.model_copy(update={"planner": behaviour.planner.model_copy(update={"model_id": None})})
    with pytest.raises(AssistantConfigError, match="SKYMARSHAL_ASSISTANT_PLANNER_MODEL"):
        resolve_chat_model("planner", bare, None, env={"SKYMARSHAL_LLM_PROVIDER": "bedrock"})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"retrieval": {"top_k": 0}}, "retrieval.top_k"),
        ({"features": {"reranking": "sometimes"}}, "features.reranking"),
        ({"planner": {"prompt": "planner.md", "temperature": 3}}, "planner.temperature"),
        ({"surprise": 1}, "surprise"),
    ],
)
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
    settings = AssistantSettings.from_env(
        {
            "SKYMARSHAL_ASSISTANT_CHECKPOINTER": "SQLite",
            "SKYMARSHAL_ASSISTANT_SQLITE_PATH": "/tmp/x.sqlite",
            "SKYMARSHAL_ASSISTANT_ENABLED": "false",
        }
    )
    assert (settings.checkpointer, str(settings.sqlite_path), settings.enabled) == ("sqlite", "/tmp/x.sqlite", False)
    assert AssistantSettings.from_env({}).checkpointer == "memory"
    with pytest.raises(AssistantConfigError, match="memory, sqlite or none"):
        AssistantSettings.from_env({"SKYMARSHAL_ASSISTANT_CHECKPOINTER": "redis"})
