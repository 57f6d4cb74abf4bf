"""A two-node LangGraph graph checkpointed by DynamoDBSaver (moto) and by InMemorySaver, used the same way."""

from __future__ import annotations

import operator
import os
from collections import Counter
from typing import Annotated, TypedDict

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import END, START, StateGraph
from langgraph_checkpoint_aws import DynamoDBSaver

from skymarshal.checkpoint import checkpointer_from_env, thread_id
from skymarshal.checkpoint.config import CHECKPOINT_TTL_DAYS
from skymarshal.checkpoint.registry_dynamodb import ThreadRegistry

BIG = 400 * 1024  # random bytes: gzip cannot bring them under the 350 KB offload threshold


class State(TypedDict):
    log: Annotated[list[str], operator.add]
    blob: bytes


class Graph:
    """assess -> decide. `decide` can be made to crash once, or to put a large blob into the state."""

    def __init__(self, checkpointer, *, crash_once: bool = False, blob_size: int = 0):
        self.calls: Counter = Counter()
        self.crash_once, self.blob_size = crash_once, blob_size
        builder = StateGraph(State)
        builder.add_node("assess", self.assess)
        builder.add_node("decide", self.decide)
        builder.add_edge(START, "assess")
        builder.add_edge("assess", "decide")
        builder.add_edge("decide", END)
        self.app = builder.compile(checkpointer=checkpointer)

    def assess(self, state: State) -> dict:
        self.calls["assess"] += 1
        return {"log": ["assessed"]}

    def decide(self, state: State) -> dict:
        self.calls["decide"] += 1
        if self.crash_once and self.calls["decide"] == 1:
            raise RuntimeError("agent crashed mid-decision")
        return {"log": ["decided"], "blob": os.urandom(self.blob_size) if self.blob_size else b""}


def config(tid: str, **metadata) -> dict:
    return {"configurable": {"thread_id": tid}, "metadata": metadata}


_counter = Counter()


def new_thread(agent: str = "crew_compliance") -> str:
    _counter[agent] += 1
    return thread_id(f"exec-{os.getpid()}-{_counter[agent]}", agent, "initial")


@pytest.fixture(params=["dynamodb", "memory"])
def checkpointer(request, ckpt_aws):
    saver = checkpointer_from_env({**ckpt_aws.env, "SKYMARSHAL_CHECKPOINTER": request.param})
    assert isinstance(saver, DynamoDBSaver if request.param == "dynamodb" else InMemorySaver)
    return saver


# Feature: langgraph-dynamodb-integration, Property 3: Checkpoint Thread Association
# Feature: langgraph-dynamodb-integration, Property 27: Checkpoint API Consistency
def test_a_run_lists_its_checkpoints_newest_first_and_get_state_works(checkpointer):
    graph, tid = Graph(checkpointer), new_thread()
    result = graph.app.invoke({"log": ["input"]}, config(tid, agent="crew_compliance", phase="initial"))
    assert result["log"] == ["input", "assessed", "decided"]

    listed = list(checkpointer.list({"configurable": {"thread_id": tid}}))
    assert [t.metadata["step"] for t in listed] == [2, 1, 0, -1]
    ids = [t.config["configurable"]["checkpoint_id"] for t in listed]
    assert ids == sorted(ids, reverse=True)  # checkpoint ids are time-ordered UUIDv6
    assert {t.config["configurable"]["thread_id"] for t in listed} == {tid}
    assert all(t.metadata["agent"] == "crew_compliance" and t.metadata["phase"] == "initial" for t in listed)
    assert [t.parent_config["configurable"]["checkpoint_id"] for t in listed[:-1]] == ids[1:]

    state = graph.app.get_state({"configurable": {"thread_id": tid}})
    assert state.values["log"] == ["input", "assessed", "decided"]
    assert state.next == ()
    assert state.config["configurable"]["checkpoint_id"] == ids[0]
    assert list(checkpointer.list({"configurable": {"thread_id": new_thread()}})) == []


# Feature: langgraph-dynamodb-integration, Property 11: Workflow Resumption
def test_after_a_crash_the_same_thread_resumes_from_its_last_checkpoint(checkpointer, ckpt_aws):
    graph, tid = Graph(checkpointer, crash_once=True), new_thread("maintenance")
    with pytest.raises(RuntimeError, match="crashed"):
        graph.app.invoke({"log": []}, config(tid))
    assert graph.app.get_state(config(tid)).next == ("decide",)

    # A new process (a retried Lambda) with a new checkpointer on the same table continues the thread.
    if isinstance(checkpointer, DynamoDBSaver):
        checkpointer = checkpointer_from_env(ckpt_aws.dynamodb_env())
    resumed = Graph(checkpointer)
    result = resumed.app.invoke(None, config(tid))
    assert result["log"] == ["assessed", "decided"]
    assert resumed.calls == Counter({"decide": 1})  # assess was not run again


# Feature: langgraph-dynamodb-integration, Property 29: Workflow Replay
def test_any_historical_checkpoint_can_be_replayed(checkpointer):
    graph, tid = Graph(checkpointer), new_thread("regulatory")
    graph.app.invoke({"log": []}, config(tid))
    [before_decide] = [s for s in graph.app.get_state_history(config(tid)) if s.next == ("decide",)]
    replayed = graph.app.invoke(None, before_decide.config)
    assert replayed["log"] == ["assessed", "decided"]
    assert graph.calls == Counter({"assess": 1, "decide": 2})


# Feature: langgraph-dynamodb-integration, Property 1: Checkpoint Storage Routing
def test_a_state_over_350kb_is_offloaded_to_the_bucket_and_read_back(ckpt_aws):
    saver = checkpointer_from_env(ckpt_aws.dynamodb_env())
    graph, tid = Graph(saver, blob_size=BIG), new_thread("cargo")
    result = graph.app.invoke({"log": []}, config(tid))
    assert len(result["blob"]) == BIG

    s3 = ckpt_aws.client("s3")
    keys = [o["Key"] for o in s3.list_objects_v2(Bucket=ckpt_aws.bucket, Prefix=f"checkpoints/{tid}/")["Contents"]]
    latest = saver.get_tuple(config(tid))
    checkpoint_key = f"checkpoints/{tid}/checkpoints//{latest.config['configurable']['checkpoint_id']}"
    assert checkpoint_key in keys  # the final checkpoint (holding the blob) ...
    assert any("/writes/" in k for k in keys)  # ... and the node's write of it
    tags = s3.get_object_tagging(Bucket=ckpt_aws.bucket, Key=checkpoint_key)["TagSet"]
    assert tags == [{"Key": "ttl-days", "Value": str(CHECKPOINT_TTL_DAYS)}]

    ddb = ckpt_aws.client("dynamodb")
    items = ddb.query(
        TableName=ckpt_aws.table_name,
        KeyConditionExpression="PK = :pk",
        ExpressionAttributeValues={":pk": {"S": f"CHECKPOINT_{tid}"}},
    )["Items"]
    locations = {i["id"]["S"]: (i["ref_loc"]["S"], i["ref_key"]["S"]) for i in items}
    newest = latest.config["configurable"]["checkpoint_id"]
    assert locations[newest] == ("S3", checkpoint_key.removeprefix("checkpoints/"))
    assert {loc for cid, (loc, _) in locations.items() if cid != newest} == {"DYNAMODB"}  # small ones stay

    fresh = checkpointer_from_env(ckpt_aws.dynamodb_env())
    assert fresh.get_tuple(config(tid)).checkpoint["channel_values"]["blob"] == result["blob"]


def test_saver_and_registry_items_share_the_table_without_colliding(ckpt_aws):
    """The saver's keys start CHECKPOINT_/WRITES_/CHUNK_, the registry's THREAD#; only META is in the GSI."""
    env = ckpt_aws.dynamodb_env()
    saver = checkpointer_from_env(env)
    registry = ThreadRegistry(ckpt_aws.table_name, region_name=ckpt_aws.region)
    execution = f"exec-{os.getpid()}-shared"
    tid = registry.start(execution, "finance", "initial").thread_id
    Graph(saver).app.invoke({"log": []}, config(tid))
    registry.complete(tid, confidence=0.9, detail={"summary": "ok"})

    ddb = ckpt_aws.client("dynamodb")
    # A Scan is fine in a test that inspects the whole table; the library itself never scans.
    items = [
        i
        for page in ddb.get_paginator("scan").paginate(TableName=ckpt_aws.table_name)
        for i in page["Items"]
        if tid in i["PK"]["S"]
    ]
    prefixes = Counter(i["PK"]["S"].split(tid)[0] for i in items)
    assert set(prefixes) == {"CHECKPOINT_", "WRITES_", "CHUNK_", "THREAD#"}
    assert all("ttl" in i for i in items)
    assert [i["SK"]["S"] for i in items if "thread_status" in i] == ["META"]

    assert [t.thread_id for t in registry.threads_by_status("completed") if t.execution_id == execution] == [tid]
    saver.delete_thread(tid)  # deleting the checkpoints leaves the audit trail alone
    assert list(saver.list(config(tid))) == []
    assert [e.event for e in registry.events(tid)] == ["start", "completion"]
