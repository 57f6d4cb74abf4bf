"""The tamper-evident audit trail: append-only records per disruption, each holding the hash of the one before.

What a duty manager must be able to prove later — the request, each round, each decision, who approved what
and when, what was executed, the outcome — is appended here by the step that knows it. Items (AuditTrail):

  PK = "AUDIT#<disruption id>"  SK = "SEQ#000001" …   seq, kind, key, at, actor, execution_name, body, prev_hash, hash
  PK = "AUDIT#<disruption id>"  SK = "KEY#<key>"       the record a retried step already appended (idempotency)
  PK = "AUDIT#<disruption id>"  SK = "HEAD"            seq, count, state, hash, signature, key_id: signed with KMS

`hash` is SHA-256 over the canonical JSON of the record's other fields, `prev_hash` included, so changing,
removing or reordering any record breaks every hash after it. Every run artifact in S3 a record refers to
(the request, a collation, the round checkpoint a resume reuses, a large agent output, the arbitrator's
output, the execution report, the audit export) is named in its body as {bucket, key, sha256}, so `verify`
also detects an edited artifact. Records are written with a condition and never updated; the writers' IAM has no UpdateItem or
DeleteItem on the table. The head is signed with an asymmetric KMS key (ECC_NIST_P256), so whoever can write
to the table still cannot forge a head the key did not sign. The head carries the record count and the run's state
(`head_state`: open, or the outcome's status once Learn recorded it), signed with them; but a head the key once
signed can be put back with the records after it deleted — a rolled-back chain verifies on its own. What catches
that is an anchor outside the table (workflow/audit/anchor.py): the Step Functions execution's output, and in AWS
an S3 object under Object Lock, each naming the head Learn left.
"""

from __future__ import annotations

import base64
import json
import os
from datetime import UTC, datetime

from ..aws.audit_table import DynamoAuditStore
from ..aws.kms import KmsSigner
from ..aws.s3 import S3Objects
from ..deployment import AUDIT_KEY_ENV as KEY_ENV
from ..ports import AuditStore, ObjectStore, ServiceError, Signer
from ..tables import WorkflowTables
from .records import (
    GENESIS,
    AuditKind,
    AuditRecord,
    Problem,
    Verification,
    canonical,
    chain_problems,
    head_state,
    referenced_artifacts,
    sha256,
)

_MAX_APPEND_ATTEMPTS = 8


class AuditTrail:
    """Appends to and verifies the chains over three ports (workflow/ports.py): the store of the chain's items,
    the signer of its head and the objects its records name. `tables` gives the AuditTrail table as the store;
    the signer and the objects default to KMS and S3 with the default credentials."""

    def __init__(
        self,
        *,
        tables: WorkflowTables | None = None,
        store: AuditStore | None = None,
        signer: Signer | None = None,
        key_id: str | None = None,
        objects: ObjectStore | None = None,
    ):
        if store is None:
            if tables is None:
                raise ValueError("AuditTrail needs the tables or an audit store")
            store = DynamoAuditStore(tables.audit_trail)
        self.store = store
        self.key_id = key_id if key_id is not None else (os.environ.get(KEY_ENV) or None)
        self.signer: Signer = signer if signer is not None else KmsSigner()
        self.objects: ObjectStore = objects if objects is not None else S3Objects()

    # ------------------------------------------------------------------------------------------ write

    def artifact(self, bucket: str, key: str) -> dict:
        """A reference to an S3 artifact with the SHA-256 of its bytes, for a record's body (LookupError: gone)."""
        body = self.objects.get(bucket, key)
        if body is None:
            raise LookupError(f"s3://{bucket}/{key} is missing")
        return {"bucket": bucket, "key": key, "sha256": sha256(body)}

    def append(
        self,
        disruption_id: str,
        kind: AuditKind,
        key: str,
        body: dict,
        *,
        actor: str,
        execution_name: str | None = None,
        at: datetime | None = None,
    ) -> AuditRecord:
        """Append one record (or return the one already appended under `key`); signs the new head."""
        at_text = (at or datetime.now(UTC)).isoformat()
        body = json.loads(canonical(body))  # what is hashed is exactly what is read back
        for _ in range(_MAX_APPEND_ATTEMPTS):
            existing = self._by_key(disruption_id, key)
            if existing is not None:
                return existing
            last = self.last(disruption_id)
            record = AuditRecord(
                disruption_id=disruption_id,
                seq=(last.seq + 1) if last else 1,
                kind=kind,
                key=key,
                at=at_text,
                actor=actor,
                execution_name=execution_name,
                body=body,
                prev_hash=last.hash if last else GENESIS,
            )
            record = record.model_copy(update={"hash": record.digest()})
            if self._put(record):
                self._sign_head(record, head_state(record, last))
                return record
        raise RuntimeError(
            f"audit trail of {disruption_id}: could not append {kind} after "
            f"{_MAX_APPEND_ATTEMPTS} attempts (concurrent writers)"
        )

    def _put(self, record: AuditRecord) -> bool:
        """Record and its idempotency key in one transaction; False when another writer took the seq."""
        pk = f"AUDIT#{record.disruption_id}"
        item = {
            "PK": pk,
            "SK": f"SEQ#{record.seq:06d}",
            **record.model_dump(exclude={"body", "disruption_id"}),
            "body": canonical(record.body),
        }
        return self.store.put_new([item, {"PK": pk, "SK": f"KEY#{record.key}", "seq": record.seq}])

    def _statement(self, disruption_id: str, head: dict) -> bytes:
        seq, digest = int(head["seq"]), head["hash"]
        if "count" not in head:  # a head signed before it carried the count and the state
            return f"skymarshal-audit:{disruption_id}:{seq}:{digest}".encode()
        return f"skymarshal-audit:v2:{disruption_id}:{seq}:{int(head['count'])}:{head['state']}:{digest}".encode()

    def _sign_head(self, record: AuditRecord, state: str) -> None:
        head = {
            "PK": f"AUDIT#{record.disruption_id}",
            "SK": "HEAD",
            "seq": record.seq,
            "count": record.seq,  # records are numbered from 1 without gaps: the chain holds this many
            "state": state,
            "hash": record.hash,
        }
        if self.key_id:
            signed = self.signer.sign(self.key_id, self._statement(record.disruption_id, head))
            head |= {"signature": base64.b64encode(signed.signature).decode(), "key_id": signed.key_id}
        # the head only moves forward: a slower writer of an older record does not move it back
        self.store.put_head(head)

    # ------------------------------------------------------------------------------------------- read

    def by_key(self, disruption_id: str, key: str) -> AuditRecord | None:
        """The record appended under `key` (e.g. "round:initial:<execution>"), or None."""
        return self._by_key(disruption_id, key)

    def _by_key(self, disruption_id: str, key: str) -> AuditRecord | None:
        pk = f"AUDIT#{disruption_id}"
        pointer = self.store.get(pk, f"KEY#{key}")
        if pointer is None:
            return None
        item = self.store.get(pk, f"SEQ#{int(pointer['seq']):06d}")
        return _record(disruption_id, item) if item else None

    def last(self, disruption_id: str) -> AuditRecord | None:
        items = self.store.query(f"AUDIT#{disruption_id}", "SEQ#", newest_first=True, limit=1)
        return _record(disruption_id, items[0]) if items else None

    def records(self, disruption_id: str) -> list[AuditRecord]:
        return [_record(disruption_id, item) for item in self.store.query(f"AUDIT#{disruption_id}", "SEQ#")]

    def head(self, disruption_id: str) -> dict | None:
        return self.store.get(f"AUDIT#{disruption_id}", "HEAD", consistent=True)

    # ----------------------------------------------------------------------------------------- verify

    def verify(
        self, disruption_id: str, *, check_artifacts: bool = True, records: list[AuditRecord] | None = None
    ) -> Verification:
        """Recompute every hash and link, check the signed head, and re-hash the artifacts records name
        (`records`: the chain as the caller already read it)."""
        records = self.records(disruption_id) if records is None else records
        problems = chain_problems(records)
        head = self.head(disruption_id)
        last = records[-1] if records else None
        signed = bool(head and head.get("signature"))
        if last is not None:
            named = (last.seq, last.hash, len(records), head_state(last, records[-2] if len(records) > 1 else None))
            if head is None or _named(head, named[2], named[3]) != named:
                problems.append(
                    Problem(
                        code="HEAD_MISMATCH",
                        seq=last.seq,
                        message=(
                            "the signed head does not name the last record: records were added, removed or changed after it"
                        ),
                    )
                )
            elif not signed:
                problems.append(
                    Problem(
                        code="HEAD_UNSIGNED",
                        seq=last.seq,
                        message=(f"the chain head is not signed ({KEY_ENV} was not set when it was written)"),
                    )
                )
            elif not self._signature_valid(disruption_id, head):
                problems.append(
                    Problem(code="BAD_SIGNATURE", seq=last.seq, message="the head's KMS signature does not verify")
                )
        if check_artifacts:
            problems += self._artifact_problems(records)
        return Verification(
            disruption_id=disruption_id,
            ok=not problems,
            records=len(records),
            head_hash=last.hash if last else None,
            signed=signed,
            problems=problems,
        )

    def _signature_valid(self, disruption_id: str, head: dict) -> bool:
        statement = self._statement(disruption_id, head)
        return self.signer.verify(head["key_id"], statement, base64.b64decode(head["signature"]))

    def _artifact_problems(self, records: list[AuditRecord]) -> list[Problem]:
        """Each artifact as the last record naming it hashed it: an artifact the system rewrote (the stored messages
        once a later publication took more of them) is named again by the record of that rewrite."""
        last = {(a["bucket"], a["key"]): r.seq for r in records for a in referenced_artifacts(r.body)}
        problems = []
        for record in records:
            for artifact in referenced_artifacts(record.body):
                if last[(artifact["bucket"], artifact["key"])] != record.seq:
                    continue
                problem = self._artifact_problem(record, artifact)
                if problem is not None:
                    problems.append(problem)
        return problems

    def _artifact_problem(self, record: AuditRecord, artifact: dict) -> Problem | None:
        """One artifact: gone, changed since the record hashed it, or None when it is as hashed."""
        where = f"s3://{artifact['bucket']}/{artifact['key']}"
        try:
            current = self.artifact(artifact["bucket"], artifact["key"])["sha256"]
        except (LookupError, ServiceError):
            return Problem(code="ARTIFACT_MISSING", seq=record.seq, message=f"{where} is gone")
        if current != artifact["sha256"]:
            return Problem(
                code="ARTIFACT_CHANGED", seq=record.seq, message=f"{where} changed after record {record.seq}"
            )
        return None


def _named(head: dict, count: int, state: str) -> tuple:
    """What a head names: (seq, hash, count, state); an older head without count or state is read as agreeing."""
    return int(head["seq"]), head["hash"], int(head.get("count", count)), head.get("state", state)


def _record(disruption_id: str, item: dict) -> AuditRecord:
    fields = {k: v for k, v in item.items() if k not in ("PK", "SK")}
    return AuditRecord(
        disruption_id=disruption_id, **{**fields, "seq": int(fields["seq"]), "body": json.loads(fields["body"])}
    )


__all__ = [
    "GENESIS",
    "AuditKind",
    "AuditRecord",
    "AuditTrail",
    "Problem",
    "Verification",
    "canonical",
    "chain_problems",
    "head_state",
    "referenced_artifacts",
    "sha256",
]
