"""Agents checkpoint through the DynamoDB saver under moto; every agent reads a phrasing the same way."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.agents.runner import run_agent
from skymarshal.checkpoint.registry_dynamodb import ThreadRegistry
from skymarshal.checkpoint.saver import CheckpointSettings, dynamodb_saver
from skymarshal.checkpoint.threads import thread_id
from skymarshal.data.schema import AGENTS, CHECKPOINTS
from skymarshal.local.emulator import BUCKET

NOW = datetime(2027, 1, 20, 6, 0, tzinfo=UTC)


def test_an_agent_run_is_checkpointed_in_order_in_dynamodb(account, airline):
    table = account.naming(CHECKPOINTS)
    saver = dynamodb_saver(
        CheckpointSettings(
            backend="dynamodb", selected_by="test", table_name=table, bucket_name=BUCKET, region_name="us-east-1"
        )
    )
    registry = ThreadRegistry(table, client=account.client("dynamodb"))
    response = run_agent(
        "maintenance",
        airline.situations[0].prompt,
        handle=account.handle(),
        now=NOW,
        llm=None,
        execution_id="exec-ckpt",
        checkpointer=saver,
        registry=registry,
    )
    assert response.status == "ok"
    thread = thread_id("exec-ckpt", "maintenance", "initial")
    history = list(saver.list({"configurable": {"thread_id": thread}}))
    steps = [c.metadata["step"] for c in history]
    assert len(history) >= 5 and steps == sorted(steps, reverse=True)  # newest first, one per super-step
    assert "response" in history[0].checkpoint["channel_values"]
    assert [e.event for e in registry.events(thread)] == ["start", "decision", "completion"]
    assert registry.status(thread) == "completed"


PHRASINGS = {
    "flight": ["EY123", "EY 123", "ey123", "Etihad 123", "Etihad flight 123", "flight EY123"],
    "date": ["on January 20th", "on 20 Jan", "on 20/01/2027", "on 2027-01-20", "on Jan 20", "today"],
    "what": ["had a mechanical failure", "is AOG with a hydraulic leak", "has a technical problem"],
}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    flight=st.sampled_from(PHRASINGS["flight"]),
    day=st.sampled_from(PHRASINGS["date"]),
    what=st.sampled_from(PHRASINGS["what"]),
    lower=st.booleans(),
)
def test_every_agent_extracts_the_same_flight_from_any_phrasing(account, flight, day, what, lower):
    prompt = f"{flight} {day} {what}"
    prompt = prompt.lower() if lower else prompt
    ids = {
        agent: run_agent(
            agent, prompt, handle=account.handle(), now=NOW, llm=None, deadline_seconds=60
        ).extracted_flight_info
        for agent in AGENTS
    }
    assert {(info.get("flight_number"), info.get("date")) for info in ids.values()} == {("EY123", "2027-01-20")}, prompt
