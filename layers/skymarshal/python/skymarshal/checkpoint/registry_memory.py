"""The thread registry held in this process: development, tests, and the `none` checkpoint backend."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from .config import CHECKPOINT_TTL_DAYS
from .threads import (
    FINAL_STATUSES,
    THREAD_STATUSES,
    BaseThreadRegistry,
    ThreadClosed,
    ThreadEvent,
    ThreadInfo,
    UnknownThread,
    _since,
    _utcnow,
)


class InMemoryThreadRegistry(BaseThreadRegistry):
    """The same interface and checks, held in this process (development, tests, backend `none`)."""

    def __init__(self, *, ttl_days: int = CHECKPOINT_TTL_DAYS, clock: Callable[[], datetime] = _utcnow):
        super().__init__(ttl_days=ttl_days, clock=clock)
        self._lock = threading.RLock()
        self._threads: dict[str, ThreadInfo] = {}
        self._events: dict[str, list[ThreadEvent]] = {}

    def get(self, thread_id: str) -> ThreadInfo | None:
        with self._lock:
            return self._threads.get(thread_id)

    def _create(self, info: ThreadInfo) -> bool:
        with self._lock:
            if info.thread_id in self._threads:
                return False
            self._threads[info.thread_id] = info
            self._events[info.thread_id] = []
            return True

    def _change_status(self, thread_id: str, expected: str, info: ThreadInfo) -> bool:
        with self._lock:
            current = self._threads.get(thread_id)
            if current is None or current.status != expected:
                return False
            self._threads[thread_id] = replace(info, event_count=current.event_count)
            return True

    def _append(
        self, thread_id: str, event: str, now: str, ttl: int, confidence: float | None, detail: str
    ) -> ThreadEvent:
        with self._lock:
            meta = self._threads.get(thread_id)
            if meta is None:
                raise UnknownThread(thread_id)
            if meta.status in FINAL_STATUSES:
                raise ThreadClosed(thread_id, meta.status)
            seq = meta.event_count + 1
            self._threads[thread_id] = replace(meta, event_count=seq, updated_at=now, ttl=ttl)
            recorded = ThreadEvent(
                thread_id,
                meta.execution_id,
                meta.agent,
                meta.phase,
                event,
                now,
                seq,
                confidence,
                json.loads(detail),
                ttl,
            )
            self._events[thread_id].append(recorded)
            return recorded

    def events(self, thread_id: str) -> list[ThreadEvent]:
        with self._lock:
            return sorted(self._events.get(thread_id, []), key=lambda e: (e.timestamp, e.seq))

    def threads_by_status(self, status: str, since: datetime | str | None = None) -> list[ThreadInfo]:
        if status not in THREAD_STATUSES:
            raise ValueError(f"status {status!r} is not one of {', '.join(THREAD_STATUSES)}")
        floor = _since(since)
        with self._lock:
            found = [
                t for t in self._threads.values() if t.status == status and (floor is None or t.updated_at >= floor)
            ]
        return sorted(found, key=lambda t: (t.updated_at, t.thread_id))
