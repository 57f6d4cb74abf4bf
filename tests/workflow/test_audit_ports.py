"""The audit chain's logic on in-memory ports (tests/workflow/memory_ports.py), no emulated account: appends are
idempotent and linked, the head is signed and only moves forward (the memory store and the DynamoDB adapter held to
one contract), a changed record, a forged head or an edited artifact fails verification, and a rolled-back chain
fails against its Object Lock anchor."""

from __future__ import annotations

import base64

import boto3
import pytest
from memory_ports import MemoryAuditStore, MemoryObjects, MemorySigner
from moto import mock_aws

from skymarshal.workflow.audit.anchor import head_anchor, verify_anchored, write_locked
from skymarshal.workflow.audit.trail import AuditTrail
from skymarshal.workflow.aws.audit_table import DynamoAuditStore

pytestmark = pytest.mark.unit
BUCKET, LOCKED = "artifacts", "anchors"


@pytest.fixture
def trail() -> AuditTrail:
    return AuditTrail(store=MemoryAuditStore(), signer=MemorySigner("key-1"), key_id="key-1", objects=MemoryObjects())


def _three(trail: AuditTrail, run: str = "run-1") -> None:
    trail.objects.put(BUCKET, "runs/run-1/request.json", b'{"prompt":"EY123"}')
    trail.append(
        run, "request", "request", {"artifact": trail.artifact(BUCKET, "runs/run-1/request.json")}, actor="api"
    )
    trail.append(run, "decision", "decision:1", {"ranked": ["swap"]}, actor="arbitrator")
    trail.append(run, "outcome", "outcome", {"status": "executed"}, actor="learn")


def test_a_chain_on_memory_ports_appends_once_signs_and_verifies(trail):
    _three(trail)
    again = trail.append("run-1", "decision", "decision:1", {"ranked": ["other"]}, actor="arbitrator")
    assert again.seq == 2 and again.body == {"ranked": ["swap"]}  # the retried step gets the record it appended
    records = trail.records("run-1")
    assert [r.seq for r in records] == [1, 2, 3] and records[1].prev_hash == records[0].hash
    head = trail.head("run-1")
    assert head is not None and head["seq"] == 3 and head["key_id"] == "key-1"
    verdict = trail.verify("run-1")
    assert verdict.ok and verdict.signed, verdict.problems


@pytest.fixture(params=["memory", "dynamodb"])
def store(request, monkeypatch):
    """The AuditStore the chain's tests use (memory) and the DynamoDB adapter (on moto, in process), held to the same
    contract: what the tests above rely on of the fake is what the table's conditions do."""
    if request.param == "memory":
        yield MemoryAuditStore()
        return
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"):
        monkeypatch.setenv(name, "x")
    with mock_aws():
        ddb = boto3.resource("dynamodb", region_name="eu-west-1")
        table = ddb.create_table(
            TableName="audit",
            KeySchema=[{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
            AttributeDefinitions=[
                {"AttributeName": "PK", "AttributeType": "S"},
                {"AttributeName": "SK", "AttributeType": "S"},
            ],
            BillingMode="PAY_PER_REQUEST",
        )
        yield DynamoAuditStore(table)


def test_the_head_only_moves_forward_and_new_items_are_all_or_nothing(store):
    head = {"PK": "AUDIT#run-1", "SK": "HEAD", "hash": "h"}
    assert store.put_head({**head, "seq": 3})
    assert not store.put_head({**head, "seq": 2})  # a slower writer of an older record
    assert store.put_head({**head, "seq": 4})
    assert int(store.get("AUDIT#run-1", "HEAD", consistent=True)["seq"]) == 4
    first = {"PK": "AUDIT#run-1", "SK": "SEQ#000001", "seq": 1}
    assert store.put_new([first, {"PK": "AUDIT#run-1", "SK": "KEY#request", "seq": 1}])
    taken = [{**first, "seq": 9}, {"PK": "AUDIT#run-1", "SK": "KEY#other", "seq": 9}]
    assert not store.put_new(taken)  # one key taken: nothing written
    assert store.get("AUDIT#run-1", "KEY#other") is None
    assert [i["SK"] for i in store.query("AUDIT#run-1", "SEQ#")] == ["SEQ#000001"]


def test_a_changed_record_a_forged_head_and_an_edited_artifact_fail(trail):
    _three(trail)
    store = trail.store
    assert isinstance(store, MemoryAuditStore)
    store.items[("AUDIT#run-1", "SEQ#000002")]["actor"] = "someone else"
    assert "HASH_MISMATCH" in {p.code for p in trail.verify("run-1").problems}

    forged = AuditTrail(store=MemoryAuditStore(), signer=MemorySigner("key-1"), key_id="key-1", objects=trail.objects)
    _three(forged, "run-2")
    head = forged.head("run-2") or {}
    forged.store.items[("AUDIT#run-2", "HEAD")] = {**head, "signature": base64.b64encode(b"x" * 32).decode()}  # type: ignore[attr-defined]
    assert [p.code for p in forged.verify("run-2").problems] == ["BAD_SIGNATURE"]

    trail.objects.put(BUCKET, "runs/run-1/request.json", b'{"prompt":"EY124"}')
    assert "ARTIFACT_CHANGED" in {p.code for p in trail.verify("run-1").problems}


def test_a_rolled_back_chain_fails_against_its_locked_anchor(trail):
    _three(trail)
    anchor = head_anchor(trail, "run-1")
    assert anchor is not None
    write_locked(anchor, "run-1", objects=trail.objects, bucket=LOCKED)
    store = trail.store
    assert isinstance(store, MemoryAuditStore)
    saved = dict(store.items[("AUDIT#run-1", "HEAD")])
    assert verify_anchored(trail, "run-1", [], objects=trail.objects, bucket=LOCKED).ok
    # the newest record and its pointer removed, a head the signer once signed for record 2 put back
    del store.items[("AUDIT#run-1", "SEQ#000003")], store.items[("AUDIT#run-1", "KEY#outcome")]
    records = trail.records("run-1")
    head = {**saved, "seq": 2, "count": 2, "state": "open", "hash": records[-1].hash}
    signed = trail.signer.sign("key-1", trail._statement("run-1", head))
    store.items[("AUDIT#run-1", "HEAD")] = {**head, "signature": base64.b64encode(signed.signature).decode()}
    assert trail.verify("run-1").ok  # the chain alone verifies: the anchor is what catches it
    verdict = verify_anchored(trail, "run-1", [], objects=trail.objects, bucket=LOCKED)
    assert [p.code for p in verdict.problems] == ["ROLLED_BACK"]
