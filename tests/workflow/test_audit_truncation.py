"""A rolled-back audit chain fails verification: the signed head names the record count and the run's state, and
the head Learn left is anchored outside the table (the execution's output; an S3 object under Object Lock).

The attack of issue 32: save the chain's signed HEAD while the run waits for approval, let the run finish, delete
the approval, execution, outcome and export records and their pointers, put the saved HEAD back. The chain then
verifies on its own (every hash, link and the KMS signature are genuine); against either anchor it does not.
"""

from __future__ import annotations

import base64
import json
import uuid

import pytest
from test_audit_trail import Isolated

from skymarshal.workflow.audit.anchor import (
    anchor_key,
    head_anchor,
    locked_anchors,
    output_anchors,
    verify_anchored,
    write_locked,
)
from skymarshal.workflow.aws.s3 import S3Objects


@pytest.fixture
def aws(account) -> Isolated:
    return Isolated(account)


def _until_approval(trail, run: str) -> None:
    trail.append(run, "request", f"request:{run}", {"prompt": "EY123 on Jan 20 mechanical"}, actor="api")
    trail.append(run, "decision", f"decision:{run}:1", {"ranked": ["swap"]}, actor="arbitrator")
    trail.append(run, "approval_requested", f"approval_requested:{run}:1", {"attempt": 1}, actor="request_approval")


def _to_the_end(trail, run: str) -> None:
    trail.append(run, "approval_decided", f"approval_decided:{run}:1", {"action": "approve"}, actor="Dana Duty")
    trail.append(run, "execution", f"execution:{run}", {"status": "executed", "scenario_id": "swap"}, actor="execute")
    trail.append(run, "outcome", f"outcome:{run}", {"status": "executed", "history_id": f"SM-{run}"}, actor="learn")
    trail.append(run, "export", f"export:{run}", {"note": "the audit document"}, actor="learn")


def _truncate(aws, run: str, saved_head: dict) -> None:
    """Delete every record after the saved head and its idempotency pointer, and put the saved head back."""
    table = aws.table
    for record in aws.trail().records(run):
        if record.seq > int(saved_head["seq"]):
            table.delete_item(Key={"PK": f"AUDIT#{run}", "SK": f"SEQ#{record.seq:06d}"})
            table.delete_item(Key={"PK": f"AUDIT#{run}", "SK": f"KEY#{record.key}"})
    table.put_item(Item=saved_head)


def test_the_signed_head_names_the_count_and_the_runs_state(aws):
    trail, run = aws.trail(), f"t-{uuid.uuid4().hex[:6]}"
    _until_approval(trail, run)
    head = trail.head(run)
    assert (int(head["seq"]), int(head["count"]), head["state"]) == (3, 3, "open")
    _to_the_end(trail, run)
    head = trail.head(run)
    assert (int(head["count"]), head["state"]) == (7, "executed") and trail.verify(run).ok
    aws.table.put_item(Item={**head, "state": "rejected"})  # the state is signed: it cannot be changed alone
    assert [p.code for p in trail.verify(run).problems] == ["HEAD_MISMATCH"]
    aws.table.put_item(Item={**head, "count": 9})
    assert [p.code for p in trail.verify(run).problems] == ["HEAD_MISMATCH"]


def test_a_forged_state_signed_under_the_old_statement_does_not_verify(aws):
    trail, run = aws.trail(), f"t-{uuid.uuid4().hex[:6]}"
    _until_approval(trail, run)
    head = trail.head(run)
    # the head's signature covers count and state: stripping them (to pass as an older head) breaks the signature
    aws.table.put_item(Item={k: v for k, v in head.items() if k not in ("count", "state")})
    assert [p.code for p in trail.verify(run).problems] == ["BAD_SIGNATURE"]


def test_a_truncated_chain_with_an_old_head_put_back_fails_against_the_executions_output(aws):
    trail, run = aws.trail(), f"t-{uuid.uuid4().hex[:6]}"
    _until_approval(trail, run)
    saved = trail.head(run)  # while the run waits for approval
    _to_the_end(trail, run)
    anchor = head_anchor(trail, run)
    assert anchor is not None and (anchor.seq, anchor.count, anchor.state) == (7, 7, "executed")
    output = {"outcome": {"status": "executed", "anchor": anchor.model_dump(exclude={"source"})}}
    executions = [{"name": run, "status": "SUCCEEDED", "output": json.dumps(output)}]
    assert verify_anchored(trail, run, executions).ok

    _truncate(aws, run, saved)
    alone = trail.verify(run)
    assert alone.ok and alone.records == 3  # the chain by itself cannot tell: every hash and the signature hold
    verdict = verify_anchored(trail, run, executions)
    assert not verdict.ok and [p.code for p in verdict.problems] == ["ROLLED_BACK"]
    assert "execution " + run in verdict.problems[0].message and "ends at record 3" in verdict.problems[0].message
    assert output_anchors([{"name": "x", "output": "not json"}]) == []


def locked_bucket(s3) -> str:
    """A new bucket as infra/storage.py makes the anchors' (Object Lock, COMPLIANCE; a day here), by name."""
    bucket = f"skymarshal-audit-anchors-{uuid.uuid4().hex[:8]}"
    s3.create_bucket(Bucket=bucket, ObjectLockEnabledForBucket=True)
    s3.put_object_lock_configuration(
        Bucket=bucket,
        ObjectLockConfiguration={
            "ObjectLockEnabled": "Enabled",
            "Rule": {"DefaultRetention": {"Mode": "COMPLIANCE", "Days": 1}},
        },
    )
    return bucket


def test_a_truncated_chain_fails_against_the_object_lock_anchor(aws):
    s3 = aws.account.client("s3")
    bucket = locked_bucket(s3)
    trail, run = aws.trail(), f"t-{uuid.uuid4().hex[:6]}"
    _until_approval(trail, run)
    saved = trail.head(run)
    _to_the_end(trail, run)
    anchor = head_anchor(trail, run)
    assert anchor is not None
    key = write_locked(anchor, run, objects=S3Objects(s3), bucket=bucket)
    assert key == anchor_key(run, 7) and [a.seq for a in locked_anchors(run, objects=S3Objects(s3), bucket=bucket)] == [
        7
    ]
    version = s3.head_object(Bucket=bucket, Key=key)["VersionId"]
    with pytest.raises(Exception, match=r"AccessDenied|locked|retention"):  # the anchor outlives whoever edits
        s3.delete_object(Bucket=bucket, Key=key, VersionId=version)

    _truncate(aws, run, saved)
    verdict = verify_anchored(
        trail, run, [], objects=S3Objects(s3), bucket=bucket
    )  # no execution output at all: the S3 anchor
    assert [p.code for p in verdict.problems] == ["ROLLED_BACK"] and f"s3://{bucket}/" in verdict.problems[0].message
    # a delete marker over the anchor, or a newer version agreeing with the truncated chain, hides nothing
    s3.delete_object(Bucket=bucket, Key=key)
    assert "Contents" not in s3.list_objects_v2(Bucket=bucket, Prefix=key)  # gone from a plain listing
    assert [p.code for p in verify_anchored(trail, run, [], objects=S3Objects(s3), bucket=bucket).problems] == [
        "ROLLED_BACK"
    ]
    rolled_back = head_anchor(trail, run)
    assert rolled_back is not None and rolled_back.seq == 3
    write_locked(
        rolled_back.model_copy(update={"seq": 7}), run, objects=S3Objects(s3), bucket=bucket
    )  # same key, newer version
    write_locked(rolled_back, run, objects=S3Objects(s3), bucket=bucket)
    write_locked(rolled_back, run, objects=S3Objects(s3), bucket=bucket)  # written twice: one anchor, not two
    verdict = verify_anchored(trail, run, [], objects=S3Objects(s3), bucket=bucket)
    assert [(p.code, p.seq) for p in verdict.problems] == [("ROLLED_BACK", 7), ("ROLLED_BACK", 7)]
    assert f"(version {version})" in verdict.problems[0].message + verdict.problems[1].message
    # and a head rebuilt to claim the end is refused by its signature: the attacker cannot sign one
    forged = {**saved, "seq": 7, "count": 7, "state": "executed", "signature": base64.b64encode(b"x" * 64).decode()}
    aws.table.put_item(Item=forged)
    assert not trail.verify(run).ok
