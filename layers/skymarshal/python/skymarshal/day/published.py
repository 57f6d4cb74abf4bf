"""A replayed day as the console shows it: the stream it replayed and the scorecards, kept in the account's run
artifacts (``replays/<stream id>.json``, and ``replays/latest.json`` for the latest) by `skymarshal replay`."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from .scorecard import Scorecard
from .stream import Intensity, Stream
from .trace import EventStep

PREFIX = "replays"
LATEST_KEY = f"{PREFIX}/latest.json"


def replay_key(stream_id: str) -> str:
    return f"{PREFIX}/{stream_id}.json"


class ReplayedDay(BaseModel):
    model_config = ConfigDict(frozen=True)

    stream_id: str
    intensity: Intensity
    days: list[date]
    disruptions: int = Field(ge=0)
    replayed_at: datetime
    title: str
    cards: list[Scorecard] = Field(min_length=1, description="SkyMarshal's first, then any baselines")
    events: list[EventStep] = Field(default_factory=list, description="each event's choice and cost to the day")


def replayed_day(
    stream: Stream, cards: list[Scorecard], replayed_at: datetime, events: Sequence[EventStep] = ()
) -> ReplayedDay:
    header = stream.header
    return ReplayedDay(
        stream_id=header.stream_id,
        intensity=header.intensity,
        days=list(header.days),
        disruptions=len(stream.events),
        replayed_at=replayed_at,
        title=f"{header.intensity} day {', '.join(map(str, header.days))} ({len(stream.events)} disruptions)",
        cards=cards,
        events=list(events),
    )


class ArtifactWriter(Protocol):
    def put(self, key: str, payload: Any) -> int: ...


def publish(store: ArtifactWriter, day: ReplayedDay) -> None:
    """The day under its stream's key, then as the latest (the console reads the latest)."""
    body = day.model_dump(mode="json")
    store.put(replay_key(day.stream_id), body)
    store.put(LATEST_KEY, body)
