"""The EventBus port on EventBridge (PutEvents: per entry, an event id or why it was refused)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from .errors import service_error


class EventBridgeBus:
    """EventBus over an EventBridge client (the default credentials' unless one is given)."""

    def __init__(self, client: Any = None):
        self._client = client

    @property
    def client(self) -> Any:
        self._client = self._client or clients.client("events")
        return self._client

    def put(self, entries: Sequence[Mapping[str, Any]]) -> list[str | None]:
        try:
            answer = self.client.put_events(Entries=list(entries))
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
        results = answer.get("Entries", [])
        refused: list[str | None] = []
        for index in range(len(entries)):
            result = results[index] if index < len(results) else {"ErrorCode": "NoAnswer"}
            error = f"{result.get('ErrorCode', 'refused')}: {result.get('ErrorMessage', '')}".rstrip(": ")
            refused.append(None if result.get("EventId") else error)
        return refused
