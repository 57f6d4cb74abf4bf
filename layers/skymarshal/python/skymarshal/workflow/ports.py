"""The services a workflow step uses, as small protocols: the artifact bucket's objects, the KMS signer of the
audit head, the audit store (the chain's table), the state machine's task tokens and executions, the message bus and the alert
topic. The steps take these; `workflow/aws/` holds the one boto3 adapter of each, and a test may hand a step an
in-memory one instead of the emulated account. A failed call surfaces as `ServiceError`, whatever the service.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol


class ServiceError(Exception):
    """A service refused or failed a call. `code` is the service's error code (e.g. ``TaskTimedOut``), or the
    exception's class name when the call never got an answer (a timeout, no connection)."""

    def __init__(self, code: str, message: str = ""):
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code


class ObjectStore(Protocol):
    """Objects in buckets (S3): the run artifacts, the audit anchors under Object Lock."""

    def put(self, bucket: str, key: str, body: bytes, *, checksum: bool = False) -> None:
        """Write a JSON object (`checksum`: the service checks a SHA-256 of the body too)."""

    def get(self, bucket: str, key: str, *, version_id: str | None = None) -> bytes | None:
        """The object's bytes, or None when there is no such object (or version)."""

    def keys(self, bucket: str, prefix: str) -> list[str]:
        """The keys of the current objects under `prefix`, in key order."""

    def delete(self, bucket: str, key: str) -> None:
        """Remove the object (its current version); nothing when there is none."""

    def versions(self, bucket: str, prefix: str) -> list[tuple[str, str]]:
        """(key, version id) of every version under `prefix`, delete markers excepted."""


class Signature(NamedTuple):
    signature: bytes
    key_id: str  # the key that signed, as the service names it


class Signer(Protocol):
    """An asymmetric key that signs the audit chain's head (KMS, ECDSA_SHA_256 over the raw statement)."""

    def sign(self, key_id: str, message: bytes) -> Signature: ...

    def verify(self, key_id: str, message: bytes, signature: bytes) -> bool:
        """True when `signature` is the key's over `message`; False when it is not (never raises for that)."""


class AuditStore(Protocol):
    """The audit chains' items (keys PK, SK) with the writes the chain needs: two puts all or nothing, a
    conditional put of the head, reads by key and by prefix. Items are plain dicts; numbers may come back as
    Decimal."""

    def put_new(self, items: Sequence[Mapping[str, Any]]) -> bool:
        """Put every item, all or nothing, each only where its key is still free; False when one was taken."""

    def put_head(self, item: Mapping[str, Any]) -> bool:
        """Put the head unless the stored one names a later record (`seq`); False when it does."""

    def get(self, pk: str, sk: str, *, consistent: bool = False) -> dict[str, Any] | None: ...

    def query(self, pk: str, sk_prefix: str, *, newest_first: bool = False, limit: int | None = None) -> list[dict]:
        """The items of partition `pk` whose sort key starts with `sk_prefix`, in key order (every page)."""


class TaskTokens(Protocol):
    """The state machine's waiting tasks (Step Functions `.waitForTaskToken`)."""

    def succeed(self, token: str, output: str) -> None:
        """Resume the task with `output` (JSON); ServiceError (TaskTimedOut, TaskDoesNotExist, InvalidToken)
        when it no longer waits."""


class Executions(Protocol):
    """The state machine's executions (Step Functions): what the Trigger and the run client start."""

    def status(self, execution_arn: str) -> str | None:
        """RUNNING, SUCCEEDED …; None when there is no such execution."""

    def start(self, state_machine_arn: str, name: str, input: str) -> str | None:
        """The new execution's ARN; None when one of that name exists already."""


class EventBus(Protocol):
    """A bus taking a batch of events (EventBridge PutEvents: at most ten a call)."""

    def put(self, entries: Sequence[Mapping[str, Any]]) -> list[str | None]:
        """Per entry, in order: None when the bus took it, else why it refused it. ServiceError when the whole
        call failed."""


class AlertTopic(Protocol):
    """A topic a duty manager subscribes to (SNS)."""

    def publish(self, topic: str, subject: str, message: str, attributes: Mapping[str, str]) -> None: ...
