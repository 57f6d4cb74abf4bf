"""Each agent's Lambda handler, called in-process as Lambda would, against the emulated account."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from skymarshal.data.schema import AGENTS

FUNCTIONS = Path(__file__).resolve().parents[2] / "functions"


class Context:
    function_name = "skymarshal-agent"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:skymarshal-agent"
    aws_request_id = "req-1"

    def get_remaining_time_in_millis(self) -> int:
        return 60000


def load(agent: str):
    spec = importlib.util.spec_from_file_location(f"handler_{agent}", FUNCTIONS / agent / "handler.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.handler


@pytest.fixture(autouse=True)
def lambda_env(monkeypatch, account):
    monkeypatch.setenv("POWERTOOLS_TRACE_DISABLED", "1")
    monkeypatch.setenv("POWERTOOLS_METRICS_NAMESPACE", "SkyMarshalTest")
    monkeypatch.setenv("SKYMARSHAL_CHECKPOINTER", "memory")


def test_there_is_one_handler_per_agent_besides_the_workflow_steps_the_api_and_the_alert_webhook():
    handlers = sorted(p.name for p in FUNCTIONS.iterdir() if (p / "handler.py").exists())
    # functions/stream starts uvicorn (run.sh); functions/alerts posts an alert to a chat webhook
    assert handlers == sorted([*AGENTS, "workflow", "api", "alerts"])


@pytest.mark.parametrize("agent", ["maintenance", "cargo"])
def test_handler_answers_an_event(agent, airline):
    event = {"prompt": airline.situations[0].prompt, "phase": "initial", "execution_id": "exec-42", "agent": agent}
    result = load(agent)(event, Context())
    assert result["agent_name"] == agent and result["status"] == "ok"
    assert result["extracted_flight_info"]["flight_number"] == "EY123"


@pytest.mark.parametrize(
    "event, field",
    [
        ({"phase": "initial", "execution_id": "x"}, "prompt"),
        ({"prompt": "EY123 on 20 Jan", "phase": "final", "execution_id": "x"}, "phase"),
        ({"prompt": "EY123 on 20 Jan"}, "execution_id"),
    ],
)
def test_a_malformed_event_is_an_input_error_naming_the_field(event, field):
    result = load("network")(event, Context())
    assert result["status"] == "input_error" and result["message"].startswith(field)
