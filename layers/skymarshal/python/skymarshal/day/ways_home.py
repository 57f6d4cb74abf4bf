"""A stranded passenger's earliest way home on the day as flown (the scorecard's journey walk): the search the
cancellation plan uses (``rules.reaccommodation``) over every operated flight at its flown times, one seat ledger for
the whole day, the same for every policy."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from ..models.operational import Booking, Flight
from ..rules.reaccommodation import Journey, Network, Party, SeatLedger, reaccommodate
from .realize import DayState, Timing


def as_flown(f: Flight, t: Timing) -> Flight:
    return f.model_copy(update={"estimated_departure": t.departure, "estimated_arrival": t.arrival})


class WaysHome:
    """The day's operated flights as flown, with one seat ledger: a stranded passenger's earliest way home
    (``rules.reaccommodation``), each seat given once whichever passenger needed it first."""

    def __init__(self, state: DayState, timings: dict[str, Timing]):
        flown = [
            as_flown(f, t).model_copy(update={"status": "SCHEDULED"})
            for fid, t in timings.items()
            if (f := state.flights[fid]).status != "DIVERTED" and fid not in state.added_legs  # a ferry seats nobody
        ]
        self.network = Network(flown)
        self.seats = SeatLedger(flown)
        self.mct = dict(state.min_connection_minutes)

    def home(
        self, row: Booking, at: Flight, since: datetime, ready: datetime, due: datetime, tz_day: str
    ) -> Journey | None:
        """One passenger waiting at `at`'s origin from `ready` (due there since `since`, at the final destination
        by `due`): the earliest journey home leaving by the end of the next local day, or None."""
        party = Party(
            party_id=row.booking_id,
            passengers=1,
            cabin=row.cabin,
            origin=at.origin,
            ready=ready,
            waiting_since=min(since, ready),
            destination=row.final_destination,
            scheduled_arrival=due,
            exclude=frozenset({at.flight_id}),
        )
        if party.origin == party.destination:
            return None
        found = reaccommodate([party], self.network, _horizon(tz_day, since), self.mct, self.seats)
        return found.journeys[0] if found.journeys else None


def _horizon(tz: str, since: datetime) -> datetime:
    """The end of the local day after the one the wait began in."""
    zone = ZoneInfo(tz)
    day = since.astimezone(zone).date() + timedelta(days=2)
    return datetime.combine(day, time(0), tzinfo=zone)
