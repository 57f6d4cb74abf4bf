"""ThreadRegistry (Checkpoints table in moto) and InMemoryThreadRegistry: same interface, same answers."""

from __future__ import annotations

import itertools
import logging
import threading
import uuid
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from skymarshal.checkpoint import (
    THREAD_STATUSES,
    TRANSITIONS,
    IllegalTransition,
    InMemoryThreadRegistry,
    ThreadClosed,
    ThreadInfo,
    ThreadRegistry,
    UnknownThread,
    thread_id,
    thread_registry_from_env,
)
from skymarshal.data.schema import THREAD_STATUS_INDEX

T0 = datetime(2026, 3, 1, 6, 0, tzinfo=UTC)


class Clock:
    """Starts at T0 and moves only when told to, so several events can share one timestamp."""

    def __init__(self, start: datetime = T0):
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def tick(self, seconds: float = 1) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture(params=["dynamodb", "memory"])
def kind(request):
    return request.param


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def operations():
    return Counter()


@pytest.fixture
def dynamo_registry(ckpt_aws, clock, operations):
    made = ThreadRegistry(ckpt_aws.table_name, region_name=ckpt_aws.region, clock=clock)
    made.client.meta.events.register("before-call.dynamodb", lambda model, **_: operations.update([model.name]))
    return made


@pytest.fixture
def registry(kind, clock, request):
    return InMemoryThreadRegistry(clock=clock) if kind == "memory" else request.getfixturevalue("dynamo_registry")


def execution() -> str:
    return f"exec-{uuid.uuid4().hex[:10]}"


# Feature: langgraph-dynamodb-integration, Property 7: Agent Checkpoint Lifecycle
# Feature: langgraph-dynamodb-integration, Property 8: Checkpoint Metadata Completeness
def test_lifecycle_events_come_back_in_time_order(registry, clock):
    exec_id = execution()
    info = registry.start(exec_id, "crew_compliance", "initial", detail={"flight": "EY123"})
    tid = info.thread_id
    assert (info.thread_id, info.status, info.execution_id) == (
        f"{exec_id}#crew_compliance#initial",
        "running",
        exec_id,
    )
    clock.tick()
    registry.record(tid, "decision", confidence=0.82, detail={"option": "swap", "margin": 1.25})
    registry.record(tid, "error", detail={"error": "timeout on roster query"})  # same timestamp as the decision
    clock.tick(0.000001)
    done = registry.complete(tid, confidence=0.9, detail={"result": "crew legal"})

    events = registry.events(tid)
    assert [e.event for e in events] == ["start", "decision", "error", "completion"]
    assert [e.seq for e in events] == [1, 2, 3, 4]
    assert [e.timestamp for e in events] == sorted(e.timestamp for e in events)
    assert events[1].timestamp == events[2].timestamp == "2026-03-01T06:00:01.000000Z"
    assert all(
        (e.thread_id, e.agent, e.phase, e.execution_id) == (tid, "crew_compliance", "initial", exec_id) for e in events
    )
    assert events[0].detail == {"flight": "EY123"} and events[0].confidence is None
    assert (events[1].confidence, events[1].detail) == (0.82, {"option": "swap", "margin": 1.25})
    assert events[3].confidence == 0.9
    assert done.status == registry.status(tid) == "completed"
    assert done.event_count == registry.get(tid).event_count == 4
    expected_ttl = int(T0.timestamp()) + 90 * 86400
    assert all(expected_ttl <= e.ttl <= expected_ttl + 2 for e in events)


def test_events_are_checked(registry):
    tid = registry.start(execution(), "network", "revision").thread_id
    with pytest.raises(ValueError, match="confidence"):
        registry.record(tid, "decision")
    with pytest.raises(ValueError, match="between 0 and 1"):
        registry.record(tid, "decision", confidence=1.5)
    with pytest.raises(ValueError, match="not one of"):
        registry.record(tid, "approval")
    with pytest.raises(UnknownThread):
        registry.record(thread_id(execution(), "network", "revision"), "start")
    assert [e.event for e in registry.events(tid)] == ["start"]


# Feature: langgraph-dynamodb-integration, Property 19: Rejection Handling
# Feature: langgraph-dynamodb-integration, Property 20: Approval Metadata Recording
def test_a_rejected_thread_is_halted_for_good(registry):
    tid = registry.start(execution(), "arbitrator", "arbitration").thread_id
    registry.record(tid, "decision", confidence=0.7, detail={"plan": "cancel EY45"})
    registry.set_status(tid, "awaiting_approval")
    rejected = registry.set_status(tid, "rejected", actor="duty-manager-17", detail={"comments": "keep the slot"})
    assert (rejected.status, rejected.status_actor, rejected.status_detail) == (
        "rejected",
        "duty-manager-17",
        {"comments": "keep the slot"},
    )
    stored = registry.get(tid)
    assert (stored.status, stored.status_actor, stored.status_detail) == (
        "rejected",
        "duty-manager-17",
        {"comments": "keep the slot"},
    )

    with pytest.raises(IllegalTransition) as caught:
        registry.set_status(tid, "running")
    assert (caught.value.current, caught.value.requested) == ("rejected", "running")
    assert isinstance(caught.value, ValueError)
    with pytest.raises(IllegalTransition):
        registry.start(*tid.split("#"))
    with pytest.raises(ThreadClosed):
        registry.record(tid, "decision", confidence=0.9)
    assert registry.status(tid) == "rejected"


# Feature: langgraph-dynamodb-integration, Property 18: Approval Resumption
def test_approval_resumes_and_records_the_approver(registry):
    tid = registry.start(execution(), "arbitrator", "arbitration").thread_id
    registry.set_status(tid, "awaiting_approval")
    resumed = registry.set_status(tid, "running", actor="ops-3", detail={"comments": "approved"})
    assert (resumed.status, resumed.status_actor) == ("running", "ops-3")
    registry.complete(tid)
    assert registry.get(tid).status_actor is None  # the last change had no actor


# Feature: langgraph-dynamodb-integration, Property 5: Thread Status Transitions
def test_failure_then_resume(registry):
    exec_id = execution()
    tid = registry.start(exec_id, "maintenance", "initial").thread_id
    failed = registry.fail(tid, TimeoutError("MEL lookup timed out"))
    assert failed.status == "failed" and failed.status_detail["error_type"] == "TimeoutError"
    again = registry.start(exec_id, "maintenance", "initial")
    assert again.status == "running"
    registry.start(exec_id, "maintenance", "initial")  # a retried Lambda starts a running thread again
    events = registry.events(tid)
    assert [e.event for e in events] == ["start", "error", "start", "start"]
    assert events[1].detail == {"error": "MEL lookup timed out", "error_type": "TimeoutError"}
    assert events[2].detail == {"resumed_from": "failed"} and events[3].detail == {"restart": True}


def test_create_registers_without_starting(registry):
    exec_id = execution()
    created = registry.create(exec_id, "cargo", "initial")
    assert created.status == "created" and registry.create(exec_id, "cargo", "initial") == created
    assert registry.events(created.thread_id) == []
    started = registry.start(exec_id, "cargo", "initial")
    assert started.status == "running"
    assert registry.events(created.thread_id)[0].detail == {}


def test_every_transition_follows_the_table(registry, clock, kind):
    """Every (from, to) pair of statuses: allowed exactly when TRANSITIONS says so."""
    exec_id = execution()
    for index, (source, target) in enumerate(itertools.product(THREAD_STATUSES, THREAD_STATUSES)):
        tid = thread_id(f"{exec_id}-{index}", "finance", "revision")
        now = "2026-03-01T06:00:00.000000Z"
        assert registry._create(
            ThreadInfo(tid, f"{exec_id}-{index}", "finance", "revision", source, now, now, now, ttl=1)
        )
        if target in TRANSITIONS[source]:
            assert registry.set_status(tid, target).status == target
        else:
            with pytest.raises(IllegalTransition):
                registry.set_status(tid, target)
            assert registry.status(tid) == source


# Feature: langgraph-dynamodb-integration, Property 6: Thread Query Filtering
def test_threads_by_status_uses_the_gsi(registry, clock, kind, operations, ckpt_aws):
    clock.now = datetime(2031, 1, 1, tzinfo=UTC)  # later than every other test's threads
    exec_id = execution()
    tids = {}
    for agent, target in [
        ("crew_compliance", "running"),
        ("maintenance", "failed"),
        ("network", "running"),
        ("finance", "awaiting_approval"),
        ("cargo", "completed"),
    ]:
        tid = registry.start(exec_id, agent, "initial").thread_id
        if target == "failed":
            registry.fail(tid, "boom")
        elif target == "completed":
            registry.complete(tid)
        elif target != "running":
            registry.set_status(tid, target)
        tids[agent] = tid
        clock.tick(60)

    mine = lambda threads: [t.thread_id for t in threads if t.execution_id == exec_id]  # noqa: E731
    assert mine(registry.threads_by_status("running")) == [tids["crew_compliance"], tids["network"]]
    assert mine(registry.threads_by_status("failed")) == [tids["maintenance"]]
    assert mine(registry.threads_by_status("completed")) == [tids["cargo"]]
    assert mine(registry.threads_by_status("awaiting_approval")) == [tids["finance"]]
    assert mine(registry.threads_by_status("rejected")) == []
    since = datetime(2031, 1, 1, 0, 1, tzinfo=UTC)
    assert mine(registry.threads_by_status("running", since=since)) == [tids["network"]]
    assert all(t.status == "running" for t in registry.threads_by_status("running"))
    with pytest.raises(ValueError):
        registry.threads_by_status("active")

    if kind == "dynamodb":
        queries = []
        registry.client.meta.events.register(
            "before-parameter-build.dynamodb.Query", lambda params, **_: queries.append(params)
        )
        registry.threads_by_status("running")
        assert queries[-1]["IndexName"] == THREAD_STATUS_INDEX


def test_the_registry_never_scans(dynamo_registry, operations):
    registry = dynamo_registry
    exec_id = execution()
    tid = registry.start(exec_id, "guest_experience", "initial").thread_id
    registry.record(tid, "decision", confidence=0.5)
    registry.set_status(tid, "escalated", actor="ops-1")
    registry.set_status(tid, "running")
    registry.fail(tid, "boom")
    registry.events(tid)
    registry.threads_by_status("failed")
    registry.get(tid)
    with pytest.raises(IllegalTransition):
        registry.set_status(tid, "completed")
    assert operations and operations["Scan"] == 0
    assert set(operations) <= {"GetItem", "PutItem", "UpdateItem", "Query"}, operations


def test_every_registry_item_has_the_ttl(dynamo_registry, ckpt_aws):
    registry = dynamo_registry
    tid = registry.start(execution(), "regulatory", "revision").thread_id
    registry.record(tid, "decision", confidence=0.66)
    registry.complete(tid)
    items = ckpt_aws.client("dynamodb").query(
        TableName=ckpt_aws.table_name,
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": f"THREAD#{tid}"}},
    )["Items"]
    assert sorted(i["SK"]["S"].split("#")[0] for i in items) == ["EVENT"] * 3 + ["META"]
    expected = int(T0.timestamp()) + 90 * 86400
    assert all(int(i["ttl"]["N"]) == expected for i in items)
    assert [i for i in items if "thread_status" in i] == [i for i in items if i["SK"]["S"] == "META"]


def test_concurrent_events_get_distinct_sequence_numbers():
    """In memory; moto does not serialise concurrent updates the way DynamoDB does."""
    registry = InMemoryThreadRegistry()
    tid = registry.start(execution(), "network", "initial").thread_id
    workers = [
        threading.Thread(target=lambda: [registry.record(tid, "decision", confidence=0.5) for _ in range(25)])
        for _ in range(8)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert sorted(e.seq for e in registry.events(tid)) == list(range(1, 202))


def test_registry_selection_follows_the_saver(ckpt_aws, caplog):
    caplog.set_level(logging.INFO, logger="skymarshal.checkpoint.registry_dynamodb")
    dynamo = thread_registry_from_env(ckpt_aws.dynamodb_env())
    assert isinstance(dynamo, ThreadRegistry) and dynamo.table_name == ckpt_aws.table_name
    assert isinstance(thread_registry_from_env({}), InMemoryThreadRegistry)
    assert isinstance(thread_registry_from_env({"SKYMARSHAL_CHECKPOINTER": "none"}), InMemoryThreadRegistry)
    assert any("ThreadRegistry table=" in r.getMessage() for r in caplog.records)
    with pytest.raises(ValueError, match="SKYMARSHAL_CHECKPOINTER"):
        thread_registry_from_env({"SKYMARSHAL_CHECKPOINTER": "redis"})


def test_a_status_change_whose_reply_was_lost_is_not_an_illegal_transition(registry, clock, monkeypatch):
    """DynamoDB applied the conditional update and the reply was lost (a timeout): botocore's retry fails the
    condition against the change itself. The registry sees its own change made (issue 48's fault bench: agents
    failed 'cannot go from completed to completed'); a change somebody else made is still refused."""
    tid = registry.start(execution(), "regulatory", "revision").thread_id
    made = registry._change_status

    def applied_then_lost(thread_id, expected, info):
        made(thread_id, expected, info)
        return False

    monkeypatch.setattr(registry, "_change_status", applied_then_lost)
    assert registry.complete(tid, confidence=0.9).status == "completed" == registry.status(tid)
    other = registry.start(execution(), "regulatory", "initial").thread_id

    def someone_else_first(thread_id, expected, info):
        clock.tick()  # another writer's change, a moment before ours, to the same status
        made(
            thread_id,
            expected,
            replace(info, updated_at="2026-03-01T07:00:00.000000Z", status_changed_at="2026-03-01T07:00:00.000000Z"),
        )
        return False

    monkeypatch.setattr(registry, "_change_status", someone_else_first)
    with pytest.raises(IllegalTransition):
        registry.set_status(other, "completed")
