"""A disruption stream: a header naming the airline it was drawn from, then one event per line (JSON Lines),
each the report an OCC receives at ``at`` and what the cause holds (a tail, a crew, a flight or a station, over
a window). The report text is what the workflow reads; the held thing and the window are what happens to the
day whatever anybody decides (``realize``), so every policy is scored on the same facts.

A stream is checked whole before its first event is decided: a malformed line, an event naming a flight the
data does not hold, or one lying outside the data's days is refused on one line naming the event.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from ..models.common import MAX_PROMPT_CHARS, FlightNumber, Iata, Registration, UtcDatetime
from ..models.operational import Flight

Intensity = Literal["ordinary", "bad", "meltdown"]
# What the cause holds until the window ends (realize.py applies each): a tail on the ground (AOG, damage),
# named crew members unavailable (sickness, rest), one flight held (slot, passengers, ramp), a station closed
# or cut (weather, airport, ATFM) for departures and arrivals.
Holds = Literal["tail", "crew", "flight", "station"]
# EU261 Art. 5(3) cause keys of rules.eu261.EXTRAORDINARY_CIRCUMSTANCES (technical and crew are not extraordinary).
Cause = Literal["technical", "crew", "weather", "atc", "airport_closure", "security", "bird_strike", "other"]


class StreamRefused(ValueError):
    """The stream cannot be replayed; the message is one line naming the line or the event."""


class AirlineRef(BaseModel):
    """The generated airline a stream was drawn from (GeneratorConfig's identifying fields)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int
    start: date
    days: int = Field(ge=1)
    load_factor: float = Field(gt=0, le=1)
    scale: int = Field(1, ge=1)


class StreamHeader(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    stream_id: str = Field(pattern=r"^[A-Za-z0-9._-]{1,80}$")
    seed: int
    intensity: Intensity
    days: list[date] = Field(min_length=1)
    airline: AirlineRef


class StreamEvent(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    event_id: str = Field(pattern=r"^[A-Za-z0-9._-]{1,40}$")
    at: UtcDatetime  # when the report reaches the OCC (revealed then, not before)
    holds: Holds
    family: str  # AHM 730 family (bench/reading/causes.py names)
    code: int | None = Field(None, ge=11, le=99)  # AHM 730 delay code
    cause: Cause
    history_type: Literal["mechanical", "crew", "weather", "atc", "other"]  # DisruptionHistory's type
    flight_id: str | None = None  # the flight the report is about (holds tail/crew/flight)
    flight_number: FlightNumber | None = None
    flight_date: date | None = None
    registration: Registration | None = None  # holds tail
    crew_ids: tuple[str, ...] = ()  # holds crew
    station: Iata | None = None  # holds station
    start: UtcDatetime  # the cause holds from here …
    end: UtcDatetime  # … to here (release, crew available, station open)
    closes: bool = False  # a station: no movement at all (else the window is a capacity cut, modelled the same)
    report: str = Field(min_length=1, max_length=MAX_PROMPT_CHARS)

    @model_validator(mode="after")
    def _consistent(self) -> StreamEvent:
        if self.end <= self.start:
            raise ValueError("its window ends before it starts")
        if self.at > self.end:
            raise ValueError("it is reported after its cause has cleared")
        needs = {
            "tail": ("flight_id", "registration"),
            "crew": ("flight_id", "crew_ids"),
            "flight": ("flight_id",),
            "station": ("station",),
        }[self.holds]
        missing = [name for name in needs if not getattr(self, name)]
        if missing:
            raise ValueError(f"an event holding a {self.holds} needs {', '.join(missing)}")
        return self

    @property
    def minutes(self) -> int:
        return round((self.end - self.start).total_seconds() / 60)


class Stream(BaseModel):
    model_config = ConfigDict(frozen=True)

    header: StreamHeader
    events: tuple[StreamEvent, ...]

    def write(self, path: Path) -> None:
        lines = [json.dumps({"header": self.header.model_dump(mode="json")})]
        lines += [e.model_dump_json() for e in self.events]
        path.write_text("\n".join(lines) + "\n")


def _line_error(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    message = str(first["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def parse_stream(text: str, source: str = "stream") -> Stream:
    """The stream in `text`, or StreamRefused naming the line (and the event, when its id could be read)."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if not lines:
        raise StreamRefused(f"{source}: empty: a header line, then one event per line")
    header: StreamHeader | None = None
    events: list[StreamEvent] = []
    seen: set[str] = set()
    for n, line in lines:
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise StreamRefused(f"{source} line {n}: not JSON ({exc.msg})") from None
        name = f"event {raw['event_id']!r}" if isinstance(raw, dict) and isinstance(raw.get("event_id"), str) else ""
        where = f"{source} line {n}" + (f" ({name})" if name else "")
        if header is None:
            if not isinstance(raw, dict) or set(raw) != {"header"}:
                raise StreamRefused(f'{where}: the first line must be {{"header": {{...}}}}')
            try:
                header = StreamHeader.model_validate(raw["header"])
            except ValidationError as exc:
                raise StreamRefused(f"{where}: header {_line_error(exc)}") from None
            continue
        try:
            event = StreamEvent.model_validate(raw)
        except ValidationError as exc:
            raise StreamRefused(f"{where}: {_line_error(exc)}") from None
        if event.event_id in seen:
            raise StreamRefused(f"{where}: event id used twice")
        seen.add(event.event_id)
        events.append(event)
    assert header is not None
    if not events:
        raise StreamRefused(f"{source}: no events after the header")
    return Stream(header=header, events=tuple(sorted(events, key=lambda e: (e.at, e.event_id))))


def read_stream(path: Path) -> Stream:
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise StreamRefused(f"{path}: cannot read it ({exc.__class__.__name__})") from None
    return parse_stream(text, source=path.name)


def check_against_data(
    stream: Stream,
    flight: Callable[[str], Flight | None],
    data_days: tuple[date, date],
    airports: Iterable[str],
) -> None:
    """Refuse (StreamRefused, one line naming the event) an event whose flight the data does not hold, whose
    flight number, day or tail disagree with that flight, whose station is not an airport of the network, or
    whose window lies outside the data's days. `flight(flight_id)` reads one flight (a GetItem)."""
    first, last = data_days
    known = set(airports)
    for e in stream.events:
        where = f"event {e.event_id!r}"
        if not (first <= e.start.date() and e.end.date() <= last):
            raise StreamRefused(
                f"{where}: its window {e.start:%Y-%m-%d %H:%MZ}–{e.end:%H:%MZ} lies outside the data ({first}..{last})"
            )
        if e.station is not None and e.station not in known:
            raise StreamRefused(f"{where}: station {e.station} is not an airport of the network")
        if e.flight_id is None:
            continue
        row = flight(e.flight_id)
        if row is None:
            raise StreamRefused(f"{where}: flight {e.flight_id} is not in the data")
        if (e.flight_number and e.flight_number != row.flight_number) or (
            e.flight_date and e.flight_date != row.flight_date
        ):
            raise StreamRefused(
                f"{where}: flight {e.flight_id} is {row.flight_number} on {row.flight_date}, not {e.flight_number} on {e.flight_date}"
            )


def data_days_of(header: StreamHeader) -> tuple[date, date]:
    from datetime import timedelta

    a = header.airline
    return a.start, a.start + timedelta(days=a.days - 1)


def event_times(events: Iterable[StreamEvent]) -> list[datetime]:
    return [e.at for e in events]
