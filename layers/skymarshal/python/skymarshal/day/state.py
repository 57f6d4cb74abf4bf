"""The tables a day is scored on, read from the generated airline (the baselines' tables) or from an account
after a replay (SkyMarshal's): the flights leaving from the day before the stream's first day to two days after
its last (knock-on and next-day re-accommodation reach that far), their bookings, and their crews.

From an account every read is a Query on a key or GSI: flights on type-departure-index (one per type),
bookings on flight-id-index (one per flight); a flight's crew on flight-position-index, a member's roster on its
key and the member by GetItem only when needed (a late flight's crew, a crew member reported sick).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..data.generator.network import HUB, HUB_MIN_CONNECTION_MINUTES
from ..data.integrity import fleet_flights
from ..models.operational import CrewDuty, CrewMember
from .realize import DayState

MCT = {HUB: HUB_MIN_CONNECTION_MINUTES}


def window(days: Iterable[date]) -> tuple[datetime, datetime]:
    ordered = sorted(days)
    return (
        datetime.combine(ordered[0] - timedelta(days=1), time(0), UTC),
        datetime.combine(ordered[-1] + timedelta(days=3), time(0), UTC),  # re-accommodation the day after
    )


def from_airline(airline: Any, days: Iterable[date]) -> DayState:
    """The generated airline's tables over the stream's window (in memory)."""
    start, end = window(days)
    flights = {f.flight_id: f for f in airline.tables[s.FLIGHTS] if start <= f.scheduled_departure < end}
    crew_on: dict[str, list[CrewDuty]] = defaultdict(list)
    rosters: dict[str, list[CrewDuty]] = defaultdict(list)
    for row in airline.tables[s.CREW_ROSTER]:
        rosters[row.crew_id].append(row)
        if row.flight_id in flights and row.kind == "FLIGHT":
            crew_on[row.flight_id].append(row)
    return DayState(
        flights=flights,
        bookings=[b for b in airline.tables[s.BOOKINGS] if b.flight_id in flights],
        crew_on=dict(crew_on),
        rosters=dict(rosters),
        members={m.crew_id: m for m in airline.tables[s.CREW_MEMBERS]},
        original_tails={fid: f.aircraft_registration for fid, f in flights.items()},
        min_connection_minutes=MCT,
    )


class _Lazy(Mapping[str, Any]):
    """A mapping read through `load(key)` on first use (a crew member's roster, a member): the crew rules need
    only the crews of delayed flights."""

    def __init__(self, load):
        self._load = load
        self._seen: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._seen:
            value = self._load(key)
            if value is None:
                raise KeyError(key)
            self._seen[key] = value
        return self._seen[key]

    def __contains__(self, key: object) -> bool:
        try:
            self[key]  # type: ignore[index]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(self._seen)

    def __len__(self) -> int:
        return len(self._seen)


def from_handle(handle: DataHandle, days: Iterable[date], original_tails: Mapping[str, str]) -> DayState:
    """An account's tables over the stream's window, read through the GSIs. `original_tails`: each flight's tail
    before the replay (from the replay's first read), so tail swaps can be counted."""
    start, end = window(days)
    flights = {f.flight_id: f for legs in fleet_flights(handle, start, end).values() for f in legs}
    bookings = [b for fid in flights for b in q.bookings(handle, fid)]

    def crew_on(flight_id: str) -> list[CrewDuty] | None:
        return (
            [r for r in q.crew_assignments(handle, flight_id) if r.kind == "FLIGHT"] if flight_id in flights else None
        )

    far_past = datetime(2000, 1, 1, tzinfo=UTC)

    def roster(crew_id: str) -> Sequence[CrewDuty] | None:
        return q.duty_history(handle, crew_id, far_past, end + timedelta(days=30)) or None

    def member(crew_id: str) -> CrewMember | None:
        found = q.crew_members(handle, [crew_id])
        return found[0] if found else None

    return DayState(
        flights=flights,
        bookings=bookings,
        crew_on=_Lazy(crew_on),
        rosters=_Lazy(roster),
        members=_Lazy(member),
        original_tails={fid: original_tails.get(fid, f.aircraft_registration) for fid, f in flights.items()},
        min_connection_minutes=MCT,
        # the legs not there when the replay began (no first read: none known)
        added_legs=frozenset(fid for fid in flights if original_tails and fid not in original_tails),
    )


def tails_of(handle: DataHandle, days: Iterable[date]) -> dict[str, str]:
    start, end = window(days)
    return {f.flight_id: f.aircraft_registration for legs in fleet_flights(handle, start, end).values() for f in legs}
