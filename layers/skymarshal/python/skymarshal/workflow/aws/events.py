"""The EventBus port on EventBridge (PutEvents: per entry, an event id or why it was refused)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import Adapter, call


class EventBridgeBus(Adapter):
    """EventBus over an EventBridge client."""

    service = "events"

    def put(self, entries: Sequence[Mapping[str, Any]]) -> list[str | None]:
        results = call(lambda: self.client.put_events(Entries=list(entries))).get("Entries", [])
        refused: list[str | None] = []
        for index in range(len(entries)):
            result = results[index] if index < len(results) else {"ErrorCode": "NoAnswer"}
            error = f"{result.get('ErrorCode', 'refused')}: {result.get('ErrorMessage', '')}".rstrip(": ")
            refused.append(None if result.get("EventId") else error)
        return refused
