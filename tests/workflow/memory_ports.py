"""In-memory implementations of the workflow's ports (workflow/ports.py), for tests of a step's logic without the
emulated account: objects with versions, an HMAC signer, an audit store with DynamoDB's conditions, a topic."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from typing import Any

from skymarshal.workflow.ports import ServiceError, Signature


class MemoryObjects:
    """ObjectStore: every put is a new version; `get` without a version reads the newest."""

    def __init__(self) -> None:
        self.versions_of: dict[tuple[str, str], list[bytes]] = {}

    def put(self, bucket: str, key: str, body: bytes, *, checksum: bool = False) -> None:
        self.versions_of.setdefault((bucket, key), []).append(bytes(body))

    def get(self, bucket: str, key: str, *, version_id: str | None = None) -> bytes | None:
        found = self.versions_of.get((bucket, key))
        if not found:
            return None
        return found[-1] if version_id is None else found[int(version_id)]

    def keys(self, bucket: str, prefix: str) -> list[str]:
        return sorted(k for b, k in self.versions_of if b == bucket and k.startswith(prefix))

    def delete(self, bucket: str, key: str) -> None:
        self.versions_of.pop((bucket, key), None)

    def versions(self, bucket: str, prefix: str) -> list[tuple[str, str]]:
        return [(k, str(n)) for k in self.keys(bucket, prefix) for n in range(len(self.versions_of[(bucket, k)]))]


class MemorySigner:
    """Signer: HMAC-SHA256 under a secret per key id (what matters here: only the key's holder can sign)."""

    def __init__(self, key_id: str = "key-1") -> None:
        self.secrets = {key_id: hashlib.sha256(key_id.encode()).digest()}

    def sign(self, key_id: str, message: bytes) -> Signature:
        if key_id not in self.secrets:
            raise ServiceError("NotFoundException", key_id)
        return Signature(hmac.new(self.secrets[key_id], message, hashlib.sha256).digest(), key_id)

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        expected = self.sign(key_id, message).signature
        return hmac.compare_digest(expected, signature)


class MemoryAuditStore:
    """AuditStore: items by (PK, SK), with the conditions the chain relies on."""

    def __init__(self) -> None:
        self.items: dict[tuple[str, str], dict[str, Any]] = {}

    def put_new(self, items: Sequence[Mapping[str, Any]]) -> bool:
        if any((i["PK"], i["SK"]) in self.items for i in items):
            return False
        for i in items:
            self.items[(i["PK"], i["SK"])] = dict(i)
        return True

    def put_head(self, item: Mapping[str, Any]) -> bool:
        stored = self.items.get((item["PK"], item["SK"]))
        if stored is not None and not int(stored["seq"]) < int(item["seq"]):
            return False
        self.items[(item["PK"], item["SK"])] = dict(item)
        return True

    def get(self, pk: str, sk: str, *, consistent: bool = False) -> dict[str, Any] | None:
        found = self.items.get((pk, sk))
        return dict(found) if found is not None else None

    def query(self, pk: str, sk_prefix: str, *, newest_first: bool = False, limit: int | None = None) -> list[dict]:
        found = sorted((sk, i) for (p, sk), i in self.items.items() if p == pk and sk.startswith(sk_prefix))
        rows = [dict(i) for _, i in (reversed(found) if newest_first else found)]
        return rows[:limit] if limit else rows
