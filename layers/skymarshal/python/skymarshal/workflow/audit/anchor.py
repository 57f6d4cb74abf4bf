"""Anchors of an audit chain outside its table: what makes a rolled-back chain fail verification.

The chain (workflow/audit/trail.py) proves its records were not changed after its signed head. It cannot prove
the head is the newest: whoever can write the table can delete the newest records and their pointers and put
back a head the KMS key once signed (saved while the run waited for approval, say) — and that chain verifies.
So when Learn finishes a run, the head it leaves (seq, hash, record count, the run's state) is also written
where the table's writers cannot reach:

- the Step Functions execution's output (`$.outcome.anchor`): the execution history is immutable;
- in AWS, an S3 object `anchors/<disruption id>/<seq>.json` in the bucket under Object Lock that
  infra/storage.py (AuditAnchorStorage, in the data stack) creates, COMPLIANCE mode, CDK context
  `auditAnchorRetentionDays` (SKYMARSHAL_AUDIT_ANCHOR_BUCKET, set on Learn, which may only put under
  anchors/, and on the API, which may only list and read versions there): no one, the account's root
  included, deletes or overwrites that version before its retention ends, and verification reads every
  version, so neither a newer one nor a delete marker hides it.

`anchor_problems` fails verification (ROLLED_BACK) when an anchor names a record the chain no longer holds as
anchored, which is what a truncation leaves: the chain ends before the anchor, or holds another record there.
"""

from __future__ import annotations

import json
import logging
import os
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..ports import ObjectStore, ServiceError
from .records import AuditRecord, Problem, Verification
from .trail import AuditTrail

ANCHOR_BUCKET_ENV = "SKYMARSHAL_AUDIT_ANCHOR_BUCKET"
PREFIX = "anchors/"
log = logging.getLogger("skymarshal.audit")


class Anchor(BaseModel):
    """The head a finished run left: its record number and hash, the record count and the run's state."""

    model_config = ConfigDict(frozen=True)

    seq: int
    hash: str
    count: int
    state: str
    source: str = ""  # where it was read: an execution's output, an S3 object


def head_anchor(trail: AuditTrail, disruption_id: str) -> Anchor | None:
    """The chain's current head as an anchor (what Learn puts in the execution's output)."""
    head = trail.head(disruption_id)
    if head is None:
        return None
    seq = int(head["seq"])
    return Anchor(seq=seq, hash=head["hash"], count=int(head.get("count", seq)), state=str(head.get("state", "open")))


def anchor_head(trail: AuditTrail, disruption_id: str, *, objects: ObjectStore) -> dict[str, Any] | None:
    """The head a finished run leaves, anchored outside the chain: returned for the execution's output, and
    written to the Object Lock bucket where one is configured."""
    anchor = head_anchor(trail, disruption_id)
    if anchor is None:
        return None
    write_locked(anchor, disruption_id, objects=objects)
    return anchor.model_dump(mode="json", exclude={"source"})


def anchor_key(disruption_id: str, seq: int) -> str:
    return f"{PREFIX}{disruption_id}/{seq:06d}.json"


def write_locked(anchor: Anchor, disruption_id: str, *, objects: ObjectStore, bucket: str | None = None) -> str | None:
    """The anchor as an object in the Object Lock bucket (its default retention applies); None when none is set."""
    bucket = bucket or os.environ.get(ANCHOR_BUCKET_ENV)
    if not bucket:
        return None
    key = anchor_key(disruption_id, anchor.seq)
    body = anchor.model_dump_json(exclude={"source"}).encode()
    objects.put(bucket, key, body, checksum=True)
    return key


def locked_anchors(disruption_id: str, *, objects: ObjectStore, bucket: str | None = None) -> list[Anchor]:
    """Every version of every anchor of the disruption in the Object Lock bucket (none when no bucket is set).

    Versions, not the current objects: Object Lock keeps each version, but a DELETE without a version id still
    puts a delete marker over it and a PUT a newer version, and either would hide a locked anchor from a plain
    listing."""
    bucket = bucket or os.environ.get(ANCHOR_BUCKET_ENV)
    if not bucket:
        return []
    found: dict[tuple[str, bytes], Anchor] = {}  # a version written again with the same anchor is one anchor
    for key, version_id in objects.versions(bucket, f"{PREFIX}{disruption_id}/"):
        body = objects.get(bucket, key, version_id=version_id)
        if body is None:  # gone between the listing and the read: a version Object Lock let expire
            continue
        source = f"s3://{bucket}/{key} (version {version_id})"
        found.setdefault((key, body), Anchor.model_validate({**json.loads(body), "source": source}))
    return list(found.values())


def output_anchors(executions: list[dict]) -> list[Anchor]:
    """The anchors in finished executions' outputs ($.outcome.anchor); `executions` as DescribeExecution returns."""
    found = []
    for described in executions:
        try:
            anchor = ((json.loads(described.get("output") or "null") or {}).get("outcome") or {}).get("anchor")
        except (ValueError, AttributeError):
            continue
        if anchor:
            found.append(Anchor.model_validate({**anchor, "source": f"the output of execution {described['name']}"}))
    return found


def anchor_problems(records: list[AuditRecord], anchors: list[Anchor]) -> list[Problem]:
    """ROLLED_BACK for each anchor the chain no longer holds: the record it names is gone or another."""
    by_seq = {r.seq: r for r in records}
    problems = []
    for anchor in sorted(set(anchors), key=lambda a: a.seq):
        record = by_seq.get(anchor.seq)
        if record is not None and record.hash == anchor.hash:
            continue
        now = f"the chain ends at record {len(records)}" if record is None else "the chain holds another record there"
        problems.append(
            Problem(
                code="ROLLED_BACK",
                seq=anchor.seq,
                message=f"{anchor.source} anchored record {anchor.seq} of {anchor.count} (run {anchor.state}), "
                f"but {now}: newer records were removed and an older head put back",
            )
        )
    return problems


def verify_anchored(
    trail: AuditTrail,
    disruption_id: str,
    executions: list[dict],
    *,
    objects: ObjectStore | None = None,
    bucket: str | None = None,
) -> Verification:
    """The chain's own verification, and the anchors outside it (executions' outputs, the Object Lock bucket)."""
    records = trail.records(disruption_id)
    verification = trail.verify(disruption_id, records=records)
    anchors = output_anchors(executions)
    if bucket or os.environ.get(ANCHOR_BUCKET_ENV):
        try:
            anchors += locked_anchors(disruption_id, objects=objects or trail.objects, bucket=bucket)
        except ServiceError as exc:  # cannot read the second anchor: said, not ignored
            verification.problems.append(
                Problem(code="ANCHOR_UNREADABLE", message=f"the Object Lock anchors could not be read: {exc}")
            )
    problems = anchor_problems(records, anchors)
    if not problems and verification.ok:
        return verification
    return verification.model_copy(update={"ok": False, "problems": verification.problems + problems})
