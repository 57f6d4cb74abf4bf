"""The audit trail's records and its pure checks (workflow/audit/trail.py stores and signs them): the record
model and its hash over canonical JSON, the problems verification names, the state a head names, the artifacts a
record refers to, and the chain recomputed hash by hash."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

GENESIS = "0" * 64
AuditKind = Literal[
    "request",
    "round",
    "debate",
    "decision",
    "approval_requested",
    "approval_decided",
    "execution",
    "messages_published",
    "outcome",
    "export",
]
ProblemCode = Literal[
    "EMPTY",
    "HASH_MISMATCH",
    "BROKEN_LINK",
    "SEQUENCE_GAP",
    "HEAD_MISMATCH",
    "HEAD_UNSIGNED",
    "BAD_SIGNATURE",
    "ARTIFACT_CHANGED",
    "ARTIFACT_MISSING",
    "ROLLED_BACK",
    "ANCHOR_UNREADABLE",
]


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)


def sha256(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


class AuditRecord(BaseModel):
    model_config = ConfigDict(frozen=True)

    disruption_id: str
    seq: int
    kind: AuditKind
    key: str  # what makes an append idempotent: a retried step's record is not written twice
    at: str
    actor: str  # a person (the duty manager) or the component that wrote it
    execution_name: str | None = None
    body: dict
    prev_hash: str
    hash: str = ""

    def digest(self) -> str:
        return sha256(canonical(self.model_dump(exclude={"hash"})))


class Problem(BaseModel):
    code: ProblemCode
    seq: int | None = None
    message: str


class Verification(BaseModel):
    disruption_id: str
    ok: bool
    records: int
    head_hash: str | None
    signed: bool
    problems: list[Problem]


def head_state(record: AuditRecord, previous: AuditRecord | None) -> str:
    """The run's state a head names: the outcome's status once Learn recorded it (its export keeps it), else open."""
    if record.kind == "outcome":
        return str(record.body.get("status") or "ended")
    if record.kind == "export" and previous is not None and previous.kind == "outcome":
        return str(previous.body.get("status") or "ended")
    return "open"


def referenced_artifacts(body: dict) -> list[dict]:
    """Every {bucket, key, sha256} a record's body names: a field's value, or an item of a list field."""
    found = []
    for value in body.values():
        for candidate in value if isinstance(value, list) else [value]:
            if isinstance(candidate, dict) and {"bucket", "key", "sha256"} <= set(candidate):
                found.append(candidate)
    return found


def chain_problems(records: list[AuditRecord]) -> list[Problem]:
    """The pure part of verification: every hash recomputed, every link and sequence number checked."""
    if not records:
        return [Problem(code="EMPTY", message="no audit records for this disruption")]
    problems, previous = [], None
    for expected_seq, record in enumerate(records, start=1):
        if record.seq != expected_seq:
            problems.append(Problem(code="SEQUENCE_GAP", seq=record.seq, message=f"expected record {expected_seq}"))
        if record.digest() != record.hash:
            problems.append(Problem(code="HASH_MISMATCH", seq=record.seq, message=f"record {record.seq} was changed"))
        if record.prev_hash != (previous.hash if previous else GENESIS):
            problems.append(
                Problem(
                    code="BROKEN_LINK",
                    seq=record.seq,
                    message=f"record {record.seq} does not follow the record before it",
                )
            )
        previous = record
    return problems
