"""Thread ids and the thread registry: status and lifecycle events for each agent thread.

A thread is one agent's run in one phase of one execution: `thread_id(execution_id, agent, phase)`.
The registry (registry_dynamodb.py; in memory here for development) stores its own items in the Checkpoints table. They sit next to DynamoDBSaver's items,
and their key prefixes differ from the saver's (CHECKPOINT_, WRITES_, CHUNK_; see saver.py):

  META    PK=f"THREAD#{thread_id}"  SK="META"
          thread_id, execution_id, agent, phase, thread_status, created_at, updated_at,
          status_changed_at, status_actor?, status_detail?, event_seq, ttl
  event   PK=f"THREAD#{thread_id}"  SK=f"EVENT#{timestamp}#{seq:08d}"
          thread_id, execution_id, agent, phase, event, timestamp, seq, confidence?, detail, ttl

Only META items have `thread_status`, so they are the only items in the sparse GSI
`thread-status-index` (thread_status, updated_at). Timestamps are fixed-width UTC strings
(`2026-01-31T08:15:00.000000Z`), so sorting them as strings sorts them in time. `seq` is a counter
on the META item, increased atomically for each event. It keeps two events with the same timestamp
apart and in the order they were written. `detail` is stored as a JSON string, so floats and nesting
come back exactly as they were written. Reads are Query or GetItem, never Scan.
"""

from __future__ import annotations

import json
import logging
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, Literal, NamedTuple

from .config import CHECKPOINT_TTL_DAYS, ttl_seconds

logger = logging.getLogger(__name__)

# ---------------------------------------------------------------------------------------- thread ids

PHASES: tuple[str, ...] = ("initial", "revision", "debate-3", "debate-4", "debate-5", "arbitration")
SEPARATOR = "#"
MAX_PART_LENGTH = 200


class ThreadKey(NamedTuple):
    execution_id: str
    agent: str
    phase: str


def _check_part(name: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    if len(value) > MAX_PART_LENGTH:
        raise ValueError(f"{name} is longer than {MAX_PART_LENGTH} characters")
    # '#' separates the parts; '/' would add levels to the S3 offload key; whitespace and control
    # characters make ids that are hard to copy from logs.
    if SEPARATOR in value or "/" in value or not value.isprintable() or any(c.isspace() for c in value):
        raise ValueError(f"{name} {value!r} must not contain '#', '/', whitespace or control characters")
    return value


def thread_id(execution_id: str, agent: str, phase: str) -> str:
    """`f"{execution_id}#{agent}#{phase}"`, after checking each part."""
    _check_part("execution_id", execution_id)
    _check_part("agent", agent)
    _check_part("phase", phase)
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r} is not one of {', '.join(PHASES)}")
    return SEPARATOR.join((execution_id, agent, phase))


def parse_thread_id(value: str) -> ThreadKey:
    """Split a thread id back into its parts. Raises ValueError if `thread_id` would not build it."""
    parts = value.split(SEPARATOR) if isinstance(value, str) else []
    if len(parts) != 3:
        raise ValueError(f"thread id {value!r} is not execution_id#agent#phase")
    key = ThreadKey(*parts)
    thread_id(*key)
    return key


# ----------------------------------------------------------------------------- statuses and events

ThreadStatus = Literal[
    "created", "running", "awaiting_approval", "approved", "executed", "completed", "failed", "rejected", "escalated"
]
THREAD_STATUSES: tuple[str, ...] = (
    "created",
    "running",
    "awaiting_approval",
    "approved",
    "executed",
    "completed",
    "failed",
    "rejected",
    "escalated",
)
# Allowed status changes. completed, executed and rejected are final. A rejected thread is halted for good
# (human-in-the-loop rejection). A failed thread may run again (resume from its last checkpoint). The
# arbitration thread records the duty manager's answer: approved (the approver as the status actor), then
# executed, or failed when the plan was rolled back; "alternatives" sends it back to running.
TRANSITIONS: Mapping[str, frozenset[str]] = {
    "created": frozenset({"running", "failed"}),
    "running": frozenset({"awaiting_approval", "completed", "failed", "escalated"}),
    "awaiting_approval": frozenset({"running", "approved", "rejected", "escalated", "failed"}),
    "approved": frozenset({"executed", "failed"}),
    "escalated": frozenset({"running", "awaiting_approval", "completed", "rejected", "failed"}),
    "failed": frozenset({"running", "escalated"}),
    "executed": frozenset(),
    "completed": frozenset(),
    "rejected": frozenset(),
}
FINAL_STATUSES: frozenset[str] = frozenset(s for s, targets in TRANSITIONS.items() if not targets)

ThreadEventKind = Literal["start", "decision", "error", "completion"]
EVENTS: tuple[str, ...] = ("start", "decision", "error", "completion", "checkpoint_store_down")
MAX_DETAIL_BYTES = 256 * 1024  # an event is an audit line; state belongs in the checkpoint itself

META_SK = "META"
EVENT_PREFIX = "EVENT#"
THREAD_PREFIX = "THREAD#"


class ThreadError(Exception):
    """Base class of the registry's errors."""


class UnknownThread(ThreadError, KeyError):
    def __init__(self, thread_id: str):
        super().__init__(f"thread {thread_id!r} is not registered")
        self.thread_id = thread_id

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class IllegalTransition(ThreadError, ValueError):
    def __init__(self, thread_id: str, current: str, requested: str):
        allowed = ", ".join(sorted(TRANSITIONS[current])) or "none, it is final"
        super().__init__(f"thread {thread_id!r} cannot go from {current} to {requested} (allowed: {allowed})")
        self.thread_id, self.current, self.requested = thread_id, current, requested


class ThreadClosed(ThreadError):
    """An event was recorded for a thread whose status is final (completed or rejected)."""

    def __init__(self, thread_id: str, status: str):
        super().__init__(f"thread {thread_id!r} is {status}; no further events can be recorded")
        self.thread_id, self.status = thread_id, status


class ConcurrentUpdate(ThreadError):
    """The status kept changing under us; the caller may retry."""


@dataclass(frozen=True)
class ThreadInfo:
    thread_id: str
    execution_id: str
    agent: str
    phase: str
    status: str
    created_at: str
    updated_at: str
    status_changed_at: str
    status_actor: str | None = None
    status_detail: dict[str, Any] = field(default_factory=dict)
    event_count: int = 0
    ttl: int = 0


@dataclass(frozen=True)
class ThreadEvent:
    thread_id: str
    execution_id: str
    agent: str
    phase: str
    event: str
    timestamp: str
    seq: int
    confidence: float | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    ttl: int = 0

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def format_timestamp(moment: datetime) -> str:
    if moment.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _since(value: datetime | str | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    return format_timestamp(value)


def _detail_json(detail: Mapping[str, Any] | None) -> str:
    if detail is not None and not isinstance(detail, Mapping):
        raise TypeError("detail must be a mapping")
    text = json.dumps(dict(detail or {}), sort_keys=True, allow_nan=False)
    if len(text.encode()) > MAX_DETAIL_BYTES:
        raise ValueError(f"detail is larger than {MAX_DETAIL_BYTES // 1024} KB; keep large state in the checkpoint")
    return text


def _confidence(event: str, confidence: float | None) -> float | None:
    if confidence is None:
        if event == "decision":
            raise ValueError("a decision event needs a confidence score")
        return None
    value = float(confidence)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"confidence {confidence!r} must be between 0 and 1")
    return value


def _utcnow() -> datetime:
    return datetime.now(UTC)


# -------------------------------------------------------------------------------------- registries


class BaseThreadRegistry(ABC):
    """The interface and its checks. Subclasses store items in DynamoDB or in memory."""

    def __init__(self, *, ttl_days: int = CHECKPOINT_TTL_DAYS, clock: Callable[[], datetime] = _utcnow):
        if ttl_days < 1:
            raise ValueError("ttl_days must be at least 1")
        self.ttl_days = ttl_days
        self._clock = clock

    # -- storage primitives
    @abstractmethod
    def get(self, thread_id: str) -> ThreadInfo | None:
        """The thread's META item (strongly consistent read), or None."""

    @abstractmethod
    def _create(self, info: ThreadInfo) -> bool:
        """Store META if the thread is absent; False if it already exists."""

    @abstractmethod
    def _change_status(self, thread_id: str, expected: str, info: ThreadInfo) -> bool:
        """Replace the status fields if the status is still `expected`; False otherwise."""

    @abstractmethod
    def _append(
        self, thread_id: str, event: str, now: str, ttl: int, confidence: float | None, detail: str
    ) -> ThreadEvent:
        """Bump the counter and write the event. Raise UnknownThread / ThreadClosed."""

    @abstractmethod
    def events(self, thread_id: str) -> list[ThreadEvent]:
        """The thread's events in time order (timestamp, then sequence)."""

    @abstractmethod
    def threads_by_status(self, status: str, since: datetime | str | None = None) -> list[ThreadInfo]:
        """Threads with this status, updated at or after `since`, oldest update first."""

    # -- shared behaviour
    def _now(self) -> tuple[str, int]:
        moment = self._clock()
        return format_timestamp(moment), int(moment.timestamp()) + ttl_seconds(self.ttl_days)

    def create(self, execution_id: str, agent: str, phase: str) -> ThreadInfo:
        """Register the thread with status `created` (no-op if it exists). Returns its META."""
        tid = thread_id(execution_id, agent, phase)
        now, ttl = self._now()
        info = ThreadInfo(tid, execution_id, agent, phase, "created", now, now, now, ttl=ttl)
        if self._create(info):
            return info
        existing = self.get(tid)
        assert existing is not None
        return existing

    def start(
        self, execution_id: str, agent: str, phase: str, *, detail: Mapping[str, Any] | None = None
    ) -> ThreadInfo:
        """Mark the thread running (creating it if needed) and record a `start` event.

        Starting a thread that is already running counts as a restart after a crash; the event's
        detail then has `"restart": true`. Starting a failed thread resumes it. Starting a completed
        or rejected one raises IllegalTransition.
        """
        tid = thread_id(execution_id, agent, phase)
        now, ttl = self._now()
        fresh = ThreadInfo(tid, execution_id, agent, phase, "running", now, now, now, ttl=ttl)
        body = dict(detail or {})
        if not self._create(fresh):
            current = self._require(tid)
            if current.status == "running":
                body["restart"] = True
            else:
                self.set_status(tid, "running")
                if current.status != "created":
                    body["resumed_from"] = current.status
        self.record(tid, "start", detail=body)
        return self._require(tid)

    def record(
        self, thread_id: str, event: str, *, confidence: float | None = None, detail: Mapping[str, Any] | None = None
    ) -> ThreadEvent:
        """Append a lifecycle event (start | decision | error | completion | checkpoint_store_down).

        Decision events must have a confidence between 0 and 1. Threads with a final status take no
        more events.
        """
        parse_thread_id(thread_id)
        if event not in EVENTS:
            raise ValueError(f"event {event!r} is not one of {', '.join(EVENTS)}")
        score = _confidence(event, confidence)
        text = _detail_json(detail)
        now, ttl = self._now()
        recorded = self._append(thread_id, event, now, ttl, score, text)
        logger.debug("thread %s: %s #%d", thread_id, event, recorded.seq)
        return recorded

    def check_transition(self, thread_id: str, status: str) -> ThreadInfo:
        """The current META if `status` may follow it; raises IllegalTransition or UnknownThread."""
        if status not in THREAD_STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(THREAD_STATUSES)}")
        current = self._require(thread_id)
        if status not in TRANSITIONS[current.status]:
            raise IllegalTransition(thread_id, current.status, status)
        return current

    def set_status(
        self,
        thread_id: str,
        status: str,
        *,
        actor: str | None = None,
        detail: Mapping[str, Any] | None = None,
        attempts: int = 3,
    ) -> ThreadInfo:
        """Change the status if TRANSITIONS allows it. `actor` and `detail` record who made the change
        and why (for example an approver id and their comments). Raises IllegalTransition."""
        text = _detail_json(detail)
        for _ in range(attempts):
            current = self.check_transition(thread_id, status)
            now, ttl = self._now()
            updated = replace(
                current,
                status=status,
                updated_at=now,
                status_changed_at=now,
                status_actor=actor,
                status_detail=json.loads(text),
                ttl=ttl,
            )
            if self._change_status(thread_id, current.status, updated):
                logger.info(
                    "thread %s: %s -> %s",
                    thread_id,
                    current.status,
                    status,
                    extra={"thread_id": thread_id, "thread_status": status, "actor": actor},
                )
                return updated
            landed = self.get(thread_id)
            if landed is not None and landed.status == status and landed.status_changed_at == now:
                return landed  # this very change: applied, its reply lost, and the store's retry found it made
        raise ConcurrentUpdate(f"thread {thread_id!r}: status changed concurrently {attempts} times")

    def complete(
        self, thread_id: str, *, confidence: float | None = None, detail: Mapping[str, Any] | None = None
    ) -> ThreadInfo:
        """Record a `completion` event and mark the thread completed."""
        self.check_transition(thread_id, "completed")
        self.record(thread_id, "completion", confidence=confidence, detail=detail)
        return self.set_status(thread_id, "completed", detail=detail)

    def fail(
        self, thread_id: str, error: str | BaseException, *, detail: Mapping[str, Any] | None = None
    ) -> ThreadInfo:
        """Record an `error` event (message and type) and mark the thread failed."""
        body = {**(detail or {}), "error": str(error)}
        if isinstance(error, BaseException):
            body["error_type"] = type(error).__name__
        self.check_transition(thread_id, "failed")
        self.record(thread_id, "error", detail=body)
        return self.set_status(thread_id, "failed", detail=body)

    def status(self, thread_id: str) -> str:
        return self._require(thread_id).status

    def _require(self, thread_id: str) -> ThreadInfo:
        info = self.get(thread_id)
        if info is None:
            raise UnknownThread(thread_id)
        return info
