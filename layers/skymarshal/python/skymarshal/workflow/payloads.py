"""Run artifacts in the artifacts bucket, and references to them small enough for the state machine.

Step Functions refuses a state over 256 KB. Every run artifact (collations, the arbitrator's output, the
audit document) is written to `runs/<disruption id>/<execution name>/…` — which also makes the collations
checkpoints a resumed run reuses — and the state carries it inline only when it is under `INLINE_LIMIT`.
Artifacts are per execution, never shared: a resumed run writes its own and links to the ones it reuses, so
what an earlier execution's audit records hashed is never overwritten.
"""

from __future__ import annotations

import json
import os
from typing import Any

from ..checkpoint.config import BUCKET_ENV
from .aws.s3 import S3Objects
from .models import PayloadRef
from .ports import ObjectStore

# Bytes: a budget, so every state fits Step Functions' 256 KB by construction (issue 48). A state holds the
# request, three collations (initial, revision, the debate's latest), the debate's record and the decision summary
# at once, and a round's Map output adds seven agent results: 16 KB a saved piece (5 × 16 = 80 KB) and 8 KB an
# agent result (7 × 8 = 56 KB) leave over 100 KB for the request and the rest. At 64 KB a collation, EY101's debate
# run carried 153 KB of state and its debate Map output was 164 KB (tests/workflow/state_sizes.py).
INLINE_LIMIT = 16 * 1024
AGENT_INLINE_LIMIT = 8 * 1024
RUNS_PREFIX = "runs"


def bucket_name() -> str:
    name = (os.environ.get(BUCKET_ENV) or "").strip()
    if not name:
        raise RuntimeError(f"{BUCKET_ENV} is not set: the workflow keeps run artifacts in the artifacts bucket")
    return name


def run_key(disruption_id: str, execution_name: str, name: str) -> str:
    return f"{RUNS_PREFIX}/{disruption_id}/{execution_name}/{name}.json"


class ArtifactStore:
    """One bucket's run artifacts over the ObjectStore port (S3 with the default credentials unless given)."""

    def __init__(self, bucket: str | None = None, objects: ObjectStore | None = None):
        self.bucket = bucket or bucket_name()
        self.objects: ObjectStore = objects if objects is not None else S3Objects()

    def put(self, key: str, payload: Any) -> int:
        body = json.dumps(payload, default=str, separators=(",", ":")).encode()
        self.objects.put(self.bucket, key, body)
        return len(body)

    def get(self, key: str) -> Any | None:
        body = self.objects.get(self.bucket, key)
        return None if body is None else json.loads(body)

    def save(self, key: str, payload: Any, inline_limit: int = INLINE_LIMIT) -> PayloadRef:
        """Write the payload to S3 and return a reference carrying it inline when it is small."""
        size = self.put(key, payload)
        if size <= inline_limit:
            return PayloadRef(inline=payload, size=size)
        return PayloadRef(bucket=self.bucket, key=key, size=size)

    def ref(self, payload: Any, key: str, inline_limit: int = INLINE_LIMIT) -> PayloadRef:
        """Inline when small, else written to S3 (for payloads that need no copy when small)."""
        size = len(json.dumps(payload, default=str, separators=(",", ":")).encode())
        if size <= inline_limit:
            return PayloadRef(inline=payload, size=size)
        self.put(key, payload)
        return PayloadRef(bucket=self.bucket, key=key, size=size)

    def resolve(self, ref: PayloadRef | dict | None) -> Any:
        if ref is None:
            return None
        ref = ref if isinstance(ref, PayloadRef) else PayloadRef.model_validate(ref)
        if ref.key is None:
            return ref.inline
        payload = (
            self.get(ref.key)
            if ref.bucket in (None, self.bucket)
            else ArtifactStore(ref.bucket, self.objects).get(ref.key)
        )
        if payload is None:
            raise LookupError(f"run artifact s3://{ref.bucket}/{ref.key} is missing")
        return payload


def is_ref(value: Any) -> bool:
    """A dict shaped like a PayloadRef (agents receive either a collation or a reference to one)."""
    return (
        isinstance(value, dict)
        and set(value) <= {"inline", "bucket", "key", "size"}
        and ("inline" in value or "key" in value)
    )
