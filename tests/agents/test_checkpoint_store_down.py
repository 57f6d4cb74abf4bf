"""A checkpoint store that fails mid-run: the agent continues in memory, retried once from its last checkpoint, and
says so in its response (which the round's audit record hashes) and in its thread's records."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError
from langgraph.checkpoint.memory import InMemorySaver

from skymarshal.agents.runner import run_agent
from skymarshal.checkpoint.guarded import CheckpointStoreDown, GuardedSaver
from skymarshal.checkpoint.registry_memory import InMemoryThreadRegistry
from skymarshal.checkpoint.threads import thread_id

NOW = datetime(2027, 1, 20, 6, 0, tzinfo=UTC)
THROTTLED = ClientError(
    {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "slow down"}}, "PutItem"
)


class FailingSaver(InMemorySaver):
    """Saves `works` checkpoints, then every write fails as DynamoDB's would; reads fail too when `reads_fail`."""

    def __init__(self, works: int, reads_fail: bool = False):
        super().__init__()
        self.works, self.reads_fail = works, reads_fail

    def put(self, config, checkpoint, metadata, new_versions):
        if self.works <= 0:
            raise THROTTLED
        self.works -= 1
        return super().put(config, checkpoint, metadata, new_versions)

    def get_tuple(self, config):
        if self.reads_fail and self.works <= 0:
            raise THROTTLED
        return super().get_tuple(config)


@pytest.mark.parametrize(
    ("works", "reads_fail", "retried_from"), [(2, False, "its last checkpoint"), (0, True, "the start")]
)
def test_a_store_outage_continues_in_memory_and_says_so(account, airline, works, reads_fail, retried_from):
    registry = InMemoryThreadRegistry()
    response = run_agent(
        "maintenance",
        airline.situations[0].prompt,
        handle=account.handle(),
        now=NOW,
        llm=None,
        execution_id=f"exec-down-{works}",
        checkpointer=FailingSaver(works, reads_fail),
        registry=registry,
    )
    assert response.status == "ok", response.message
    assert response.checkpoints.startswith("memory (checkpoint store unavailable: ")
    assert "ProvisionedThroughputExceededException" in response.checkpoints
    assert f"retried once from {retried_from}" in response.checkpoints
    thread = thread_id(f"exec-down-{works}", "maintenance", "initial")
    events = [e.event for e in registry.events(thread)]
    assert events == ["start", "checkpoint_store_down", "decision", "completion"]


def test_a_healthy_store_is_reported_as_stored_and_no_checkpointer_as_none(account, airline):
    kwargs = {"handle": account.handle(), "now": NOW, "llm": None}
    stored = run_agent("maintenance", airline.situations[0].prompt, checkpointer=InMemorySaver(), **kwargs)
    assert stored.checkpoints == "stored"
    assert run_agent("maintenance", airline.situations[0].prompt, **kwargs).checkpoints == "none"


def test_only_the_store_is_guarded_not_the_agent():
    class Broken(InMemorySaver):
        def get_tuple(self, config):
            raise ValueError("boom")

    with pytest.raises(CheckpointStoreDown, match="get: ValueError: boom"):
        GuardedSaver(Broken()).get_tuple({"configurable": {"thread_id": "t"}})
