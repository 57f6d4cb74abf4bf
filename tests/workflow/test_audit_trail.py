"""The hash-chained audit trail: appends, idempotency, the signed head, and tampering detected.

Each test gets its own AuditTrail table (a fresh name prefix), bucket and KMS signing key in the session's
emulated account: a second mock_aws inside the session's would reset the account for every later test.
"""

from __future__ import annotations

import json
import uuid

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skymarshal.data.loader import table_definition
from skymarshal.data.schema import AUDIT_TRAIL, TABLES_BY_NAME, Naming
from skymarshal.workflow.audit.trail import GENESIS, AuditRecord, AuditTrail, chain_problems
from skymarshal.workflow.aws.kms import KmsSigner
from skymarshal.workflow.aws.s3 import S3Objects
from skymarshal.workflow.tables import WorkflowTables


class Isolated:
    def __init__(self, account):
        self.account, self.naming = account, Naming(prefix=f"a{uuid.uuid4().hex[:8]}-")
        self.bucket = f"audit-test-{uuid.uuid4().hex[:8]}"
        account.client("dynamodb").create_table(**table_definition(TABLES_BY_NAME[AUDIT_TRAIL], self.naming))
        account.client("s3").create_bucket(Bucket=self.bucket)
        self.key_id = account.client("kms").create_key(KeySpec="ECC_NIST_P256", KeyUsage="SIGN_VERIFY")["KeyMetadata"][
            "KeyId"
        ]

    def trail(self, key_id: str | None = None) -> AuditTrail:
        return AuditTrail(
            tables=WorkflowTables(self.account.resource(), self.naming),
            signer=KmsSigner(self.account.client("kms")),
            key_id=self.key_id if key_id is None else key_id,
            objects=S3Objects(self.account.client("s3")),
        )

    @property
    def table(self):
        return self.account.resource().Table(self.naming(AUDIT_TRAIL))


@pytest.fixture
def aws(account) -> Isolated:
    return Isolated(account)


@pytest.fixture
def trail(aws):
    return aws.trail()


def _run(aws: Isolated, trail: AuditTrail, disruption_id: str = "run-1") -> list[AuditRecord]:
    aws.account.client("s3").put_object(
        Bucket=aws.bucket, Key="runs/run-1/collation-initial.json", Body=b'{"crew_compliance":{}}'
    )
    return [
        trail.append(disruption_id, "request", "request", {"prompt": "EY123 on Jan 20 mechanical"}, actor="api"),
        trail.append(
            disruption_id,
            "round",
            "round:initial",
            {"phase": "initial", "artifact": trail.artifact(aws.bucket, "runs/run-1/collation-initial.json")},
            actor="collate",
        ),
        trail.append(
            disruption_id,
            "approval_decided",
            "approval:1",
            {"action": "approve", "scenario_id": "S1", "comment": "ok"},
            actor="Dana Duty",
        ),
    ]


def test_a_clean_chain_verifies_with_a_signed_head(aws, trail):
    records = _run(aws, trail)
    assert [r.seq for r in records] == [1, 2, 3]
    assert records[0].prev_hash == GENESIS and records[1].prev_hash == records[0].hash
    result = trail.verify("run-1")
    assert result.ok, result.problems
    assert result.records == 3 and result.signed and result.head_hash == records[-1].hash


def test_a_retried_step_appends_nothing_new(trail):
    first = trail.append("run-1", "request", "request", {"prompt": "x"}, actor="api")
    again = trail.append("run-1", "request", "request", {"prompt": "something else"}, actor="api")
    assert again == first and len(trail.records("run-1")) == 1


@pytest.mark.parametrize(
    "field,value",
    [
        ("body", json.dumps({"action": "reject", "scenario_id": "S1", "comment": "ok"})),
        ("actor", "Mallory"),
        ("at", "2027-01-20T00:00:00+00:00"),
    ],
)
def test_editing_any_field_of_a_stored_record_fails_verification(aws, trail, field, value):
    _run(aws, trail)
    aws.table.update_item(
        Key={"PK": "AUDIT#run-1", "SK": "SEQ#000003"},
        UpdateExpression="SET #f = :v",
        ExpressionAttributeNames={"#f": field},
        ExpressionAttributeValues={":v": value},
    )
    result = trail.verify("run-1")
    assert not result.ok and [p.code for p in result.problems] == ["HASH_MISMATCH"]


def test_rehashing_an_edited_record_still_fails_on_the_signed_head(aws, trail):
    records = _run(aws, trail)
    forged = records[2].model_copy(update={"actor": "Mallory"})
    forged = forged.model_copy(update={"hash": forged.digest()})
    aws.table.update_item(
        Key={"PK": "AUDIT#run-1", "SK": "SEQ#000003"},
        UpdateExpression="SET actor = :a, #h = :h",
        ExpressionAttributeNames={"#h": "hash"},
        ExpressionAttributeValues={":a": "Mallory", ":h": forged.hash},
    )
    assert [p.code for p in trail.verify("run-1").problems] == ["HEAD_MISMATCH"]
    # ... and moving the head along without the key's signature does not help either
    aws.table.update_item(
        Key={"PK": "AUDIT#run-1", "SK": "HEAD"},
        UpdateExpression="SET #h = :h",
        ExpressionAttributeNames={"#h": "hash"},
        ExpressionAttributeValues={":h": forged.hash},
    )
    assert [p.code for p in trail.verify("run-1").problems] == ["BAD_SIGNATURE"]


def test_a_removed_record_breaks_the_chain(aws, trail):
    _run(aws, trail)
    aws.table.delete_item(Key={"PK": "AUDIT#run-1", "SK": "SEQ#000002"})
    codes = {p.code for p in trail.verify("run-1").problems}
    assert {"SEQUENCE_GAP", "BROKEN_LINK"} <= codes


def test_an_edited_artifact_is_detected(aws, trail):
    _run(aws, trail)
    aws.account.client("s3").put_object(Bucket=aws.bucket, Key="runs/run-1/collation-initial.json", Body=b'{"x":1}')
    result = trail.verify("run-1")
    assert [(p.code, p.seq) for p in result.problems] == [("ARTIFACT_CHANGED", 2)]


def test_without_a_key_the_head_is_reported_unsigned(aws):
    unsigned = aws.trail(key_id="")
    unsigned.append("run-2", "request", "request", {"prompt": "x"}, actor="cli")
    result = unsigned.verify("run-2")
    assert not result.ok and [p.code for p in result.problems] == ["HEAD_UNSIGNED"]


def test_an_unknown_disruption_has_nothing_to_verify(trail):
    assert [p.code for p in trail.verify("nope").problems] == ["EMPTY"]


def _chain(bodies: list[dict]) -> list[AuditRecord]:
    records, previous = [], GENESIS
    for seq, body in enumerate(bodies, start=1):
        record = AuditRecord(
            disruption_id="d", seq=seq, kind="round", key=f"k{seq}", at="t", actor="a", body=body, prev_hash=previous
        )
        record = record.model_copy(update={"hash": record.digest()})
        records.append(record)
        previous = record.hash
    return records


bodies = st.lists(
    st.dictionaries(st.text(min_size=1, max_size=5), st.integers() | st.text(max_size=8), max_size=3),
    min_size=1,
    max_size=6,
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(bodies=bodies, data=st.data())
def test_property_any_single_change_to_a_chain_is_found(bodies, data):
    records = _chain(bodies)
    assert chain_problems(records) == []
    index = data.draw(st.integers(0, len(records) - 1))
    field = data.draw(st.sampled_from(["body", "actor", "at", "kind", "key", "prev_hash", "seq"]))
    original = records[index]
    changed = {
        "body": {**original.body, "tampered": True},
        "actor": original.actor + "x",
        "at": "t2",
        "kind": "outcome" if original.kind != "outcome" else "round",
        "key": original.key + "x",
        "prev_hash": "f" * 64,
        "seq": original.seq + 1,
    }[field]
    records[index] = original.model_copy(update={field: changed})
    assert chain_problems(records) != []
