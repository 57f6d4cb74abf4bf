"""An airport or airspace disruption, or several flights one report names, as the network planner's input: the
restriction (network/restriction.py; or the named flights, each held for its minutes), the flights it touches, each
tail's later flights that inherit its delay, and the refusals intake/airport_facts.py does not already make (one
typed line each).

airport_facts refuses an airport the airline does not serve, a missing day or window, a reversed window, a window
no flight touches and more than MAX_FLIGHTS flights in the window. network/restriction.py refuses a capacity at or
above the airport's normal rate and a rate that limits no flight. Here: a window running past the data, and a scope
(the window's flights and the later flights inheriting their delay) above MAX_FLIGHTS, with a narrower window
proposed.

Several flights named by one report ("EY11 and EY15 delayed by the runway closure") are one disruption over that
set (`named_flights_scope`): the same planner, validation and ranking as an airport's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from itertools import pairwise

from ..analysis.what_if import DEFECT_CODES, DESTINATION_WEATHER_CODES
from ..data import queries as q
from ..data.access import DataHandle
from ..intake.airport_facts import MAX_FLIGHTS
from ..models.disruption import Disruption, Window, family_of
from ..models.network_plan import NetworkRestriction
from ..models.operational import Flight, WorkOrder
from ..rules import what_if_policy as policy
from ..rules.network import propagate_delay
from ..rules.regulatory import nearest_observation
from ..rules.weather import assess_weather
from .restriction import NetworkInputRefused, check_rate, restriction_of

# A flight scheduled up to this long before the window can be estimated into it (a long delay): its slot is the window's
ESTIMATE_LOOKBACK = timedelta(hours=12)
RECOVERY_HOURS = 12  # after the window: time the plan has to bring each rotation back to schedule
NAMED_SCOPES = ("flight", "crew_member")  # a report naming flights (or a crew member on them), not a place
NOT_PLANNABLE = ("CANCELLED", "DEPARTED", "ARRIVED", "DIVERTED")  # a named flight in this state cannot be re-planned
CREW_OWNED = frozenset({94, 95})  # crew rotation: the crew is the constraint, as for 61-69


@dataclass(frozen=True)
class NetworkScope:
    restriction: NetworkRestriction
    affected: list[Flight]  # depart or arrive at the airport inside the window
    inherited: list[Flight]  # later flights of the same tails that inherit the delay
    decision: datetime  # the plan is made as of this instant: every affected flight is still on the ground
    horizon_end: datetime  # the optimizer re-plans flights departing before this
    day_flights: list[Flight]  # every flight touching the airport that UTC day (the hours they use)
    known_at: datetime | None = None  # when the plan is made (the report's now): nothing recorded after it is known

    def gone(self, f: Flight) -> bool:
        """Has `f` left before the plan is made — its best-known departure before the decision, or before the
        report's now? It then flies as it is: no plan re-times, swaps or cancels a flight in the air or flown. A
        flight a report names as held is on the ground whatever its schedule said."""
        if self.restriction.kind == "flights" and any(f.flight_id == a.flight_id for a in self.affected):
            return False
        return f.departure < self.decision or (self.known_at is not None and f.departure < self.known_at)

    def known(self, opened_at: datetime) -> bool:
        """Was a record opened at `opened_at` (a work order) known when the plan is made? A world generated ahead
        holds defects found later; a real one holds none, so this only keeps the plan from seeing the future."""
        return opened_at <= (self.known_at or self.decision)

    def work_orders(self, handle: DataHandle, registration: str) -> list[WorkOrder]:
        """The tail's work orders known when the plan is made (one Query on its key): what the planner and the
        validation judge its airworthiness on (Part-M M.A.403)."""
        return [o for o in q.work_orders_for_aircraft(handle, registration) if self.known(o.opened_at)]

    @property
    def flights(self) -> list[Flight]:
        return [*self.affected, *self.inherited]


def moving_in_window(handle: DataHandle, airport: str, window: Window) -> list[Flight]:
    """The flights a restriction at `airport` over `window` regulates: those scheduled to move there in the window,
    and those whose best-known time (an estimate an earlier decision set) moves them there from the start of the
    window's first clock hour — as the slots count hours (rules/slots.py, the capacity check)."""
    regulated = window.start.replace(minute=0, second=0, microsecond=0)
    found = q.flights_at_airport(handle, airport, window.start - ESTIMATE_LOOKBACK, window.end)
    return [
        f
        for f in found
        if f.status != "CANCELLED"
        and (
            window.start <= (f.scheduled_departure if f.origin == airport else f.scheduled_arrival) < window.end
            or (f.origin == airport and regulated <= f.departure < window.end)
            or (f.destination == airport and regulated <= f.arrival < window.end)
        )
    ]


def check_window_in_data(handle: DataHandle, restriction: NetworkRestriction, affected: list[Flight]) -> None:
    """Every UTC day the window touches holds the fleet (AircraftAvailability); else the window runs past the data."""
    types = sorted({f.aircraft_type for f in affected})
    first, last = restriction.window.start.date(), restriction.window.end.date()
    day = last
    while day >= first and not any(q.fleet_of_type(handle, t, day) for t in types[:2]):
        day -= timedelta(days=1)
    if day < last:
        held = f"to {day.isoformat()}" if day >= first else f"for no day of {first.isoformat()}-{last.isoformat()}"
        raise NetworkInputRefused(
            "WINDOW_BEYOND_DATA",
            f"the window runs to {restriction.window.end:%Y-%m-%d %H:%M}Z but the data holds the fleet {held}: "
            "name a window inside the data",
        )


def inherited_flights(handle: DataHandle, restriction: NetworkRestriction, affected: list[Flight], end: datetime):
    """Each touched tail's later flights (departing before `end`) that inherit a delay, propagated through the turn
    buffers from the worst the restriction imposes: waiting for the reopening, or the slot delay."""
    ids = {f.flight_id for f in affected}
    out: dict[str, Flight] = {}
    first_by_tail: dict[str, Flight] = {}
    for f in sorted(affected, key=lambda f: f.scheduled_departure):
        first_by_tail.setdefault(f.aircraft_registration, f)
    for registration, first in sorted(first_by_tail.items()):
        rotation = q.rotation(handle, registration, first.scheduled_departure, end)
        if restriction.kind == "flights" or restriction.held_minutes:
            delay = restriction.held_minutes.get(first.flight_id, 0)
        elif restriction.slot_delay_minutes is not None:
            delay = restriction.slot_delay_minutes
        else:
            at = first.scheduled_departure if first.origin == restriction.airport else first.scheduled_arrival
            delay = max(0, int((restriction.window.end - at).total_seconds() // 60))
        for step in propagate_delay(rotation, first.flight_id, delay).flights[1:]:
            if step.departure_delay_minutes > 0 and step.flight_id not in ids:
                out[step.flight_id] = next(f for f in rotation if f.flight_id == step.flight_id)
    return sorted(out.values(), key=lambda f: (f.scheduled_departure, f.flight_id))


def narrower_window(restriction: NetworkRestriction, total: int, limit: int) -> str:
    """A window with about `limit` of `total` flights, from the same start (whole half-hours, at least 30 min)."""
    window = restriction.window
    minutes = max(30, int((window.end - window.start).total_seconds() // 60 * limit / total) // 30 * 30)
    return f"{window.start:%H:%M} to {window.start + timedelta(minutes=minutes):%H:%M} UTC"


def network_scope(
    handle: DataHandle,
    disruption: Disruption,
    *,
    now: datetime | None = None,
    recovery_hours: int = RECOVERY_HOURS,
    max_flights: int = MAX_FLIGHTS,
) -> NetworkScope:
    """The restriction, the flights it touches and those inheriting their delay; NetworkInputRefused otherwise."""
    if is_named_set(disruption):
        return named_flights_scope(handle, disruption, now=now, recovery_hours=recovery_hours, max_flights=max_flights)
    window = disruption.window
    airport = disruption.scope.airport or disruption.scope.airspace
    if window is None or airport is None:
        raise NetworkInputRefused("NO_AFFECTED_FLIGHT", "a network disruption needs an airport and a window")
    affected = moving_in_window(handle, airport, window)
    if not affected:
        raise NetworkInputRefused(
            "NO_AFFECTED_FLIGHT", f"no flight departs from or arrives at {airport} in the window: nothing to re-plan"
        )
    day = datetime.combine(window.start.date(), time(0), UTC)
    day_flights = q.flights_at_airport(handle, airport, day, day + timedelta(days=1))
    restriction = restriction_of(disruption, day_flights)
    check_rate(restriction, affected)
    check_window_in_data(handle, restriction, affected)
    horizon_end = window.end + timedelta(hours=recovery_hours)
    inherited = inherited_flights(handle, restriction, affected, horizon_end)
    total = len(affected) + len(inherited)
    if total > max_flights:
        raise NetworkInputRefused(
            "TOO_MANY_FLIGHTS",
            f"{total} flights are touched ({len(affected)} in the window, {len(inherited)} inheriting its delay), "
            f"more than {max_flights}: name a narrower window, e.g. {narrower_window(restriction, total, max_flights)}",
        )
    # As of the earliest affected flight still on the ground at the report (held at the gate past its schedule,
    # or yet to leave): one that has left by then — an inbound airborne into the window — flies as it is and
    # cannot pull the plan back to its departure (bad day E003: a 21:05 inbound made the plan re-time and cancel
    # flights that had flown hours before the 04:50 report).
    waiting = [f.scheduled_departure for f in affected if now is None or f.departure >= now]
    earliest = min(waiting, default=now or min(f.scheduled_departure for f in affected))
    decision = min(now, earliest) if now is not None else earliest
    return NetworkScope(
        restriction=restriction,
        affected=affected,
        inherited=inherited,
        decision=decision,
        horizon_end=horizon_end,
        day_flights=day_flights,
        known_at=now,
    )


# ------------------------------------------------------------------------------------------ named flights


def is_named_set(disruption: Disruption | None) -> bool:
    """Several flights one report names, hit by one cause: one network disruption over that set."""
    return disruption is not None and disruption.scope.kind in NAMED_SCOPES and len(set(disruption.scope.flights)) > 1


def held_for(disruption: Disruption, flight: Flight) -> tuple[int, str]:
    """Minutes the cause holds a named flight (`flight` as the report's facts show it), and on what basis:
    - the flight's own estimate: a stated hold or slot, the policy's slot for an ATFM regulation (the what-if
      overlay, analysis/what_if.py), or the data's delay;
    - none when the aircraft or the crew owns the cause (AHM 730 41-48, 51-52, 61-69, 94-95): the grounded tail or
      the unfit member is the constraint, and a plan may swap, call a reserve, wait or cancel;
    - weather at the destination: until the stated window ends (else the policy's WEATHER_HOURS from 30 min
      before the arrival, as the overlay's observations);
    - else the policy's planned hold for the code until its end is known (what_if_policy.slot_minutes)."""
    code = disruption.iata_delay_code
    if flight.delay_minutes > 0:
        return flight.delay_minutes, f"{flight.flight_number} estimated {flight.delay_minutes} min late"
    if code in DEFECT_CODES or code in CREW_OWNED or family_of(code) == "flight_operations_crew":
        return 0, "the aircraft or the crew is the constraint"
    if code in DESTINATION_WEATHER_CODES and disruption.scope.airport in (None, flight.destination):
        window = disruption.window
        end = window.end if window else flight.scheduled_arrival + timedelta(hours=policy.WEATHER_HOURS, minutes=-30)
        minutes = max(0, int((end - flight.scheduled_arrival).total_seconds() // 60))
        return minutes, f"weather at {flight.destination} until {end:%H:%MZ}"
    minutes = policy.slot_minutes(code)
    return minutes, f"{policy.POLICY}: AHM 730 code {code} planned at {minutes} min until its end is known"


def weather_clears(handle: DataHandle, flight: Flight, minutes: int, within_hours: int = 12) -> int:
    """The hold (from `minutes`, in 5-minute steps) at which the flight lands in weather within its type's and the
    airport's limits, as the data and the report's facts show it — the rules validation applies (the nearest
    observation, OM-A 8.1.3 minima); the whole `within_hours` when it never clears."""
    profile = q.airport_profile(handle, flight.destination)
    if profile is None:
        return minutes
    first = flight.scheduled_arrival + timedelta(minutes=minutes)
    seen = q.weather(handle, flight.destination, first - timedelta(hours=3), first + timedelta(hours=within_hours + 3))
    for step in range(0, within_hours * 60 + 1, 5):
        current = nearest_observation(seen, flight.destination, first + timedelta(minutes=step))
        if current is None or not any(
            f.binding for f in assess_weather(current, profile, flight.aircraft_type).findings
        ):
            return minutes + step
    return minutes + within_hours * 60


def chained(handle: DataHandle, flights: list[Flight], held: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """Each named flight held at least the delay its tail's earlier named flight passes on through the turns: the
    planner keeps a held flight on its own tail at its hold (a regulated flight's slot), so the tail must be back."""
    out = dict(held)
    by_tail: dict[str, list[Flight]] = {}
    for f in sorted(flights, key=lambda f: f.scheduled_departure):
        by_tail.setdefault(f.aircraft_registration, []).append(f)
    for registration, named in by_tail.items():
        if len(named) < 2:
            continue
        end = named[-1].scheduled_departure + timedelta(minutes=1)
        rotation = q.rotation(handle, registration, named[0].scheduled_departure, end)
        for earlier, later in pairwise(named):
            steps = propagate_delay(rotation, earlier.flight_id, out[earlier.flight_id][0]).flights
            passed = next((x.departure_delay_minutes for x in steps if x.flight_id == later.flight_id), 0)
            if passed > out[later.flight_id][0]:
                out[later.flight_id] = (passed, f"its tail's earlier {earlier.flight_number} held")
    return out


def _shared_station(flights: list[Flight]) -> str:
    """The station every named flight leaves from, else the one they all fly to, else the first one's origin."""
    for ends in ({f.origin for f in flights}, {f.destination for f in flights}):
        if len(ends) == 1:
            return next(iter(ends))
    return flights[0].origin


def named_flights(handle: DataHandle, disruption: Disruption) -> list[Flight]:
    """The named flights as the data (and the report's overlay) shows them; one that is gone or cannot be
    re-planned any more is refused in one line."""
    flights = []
    for flight_id in dict.fromkeys(disruption.scope.flights):
        flight = q.get_flight(handle, flight_id)
        if flight is None:
            raise NetworkInputRefused("NO_AFFECTED_FLIGHT", f"{flight_id} is not in the schedule: nothing to re-plan")
        if flight.status in NOT_PLANNABLE:
            raise NetworkInputRefused(
                "FLIGHT_NOT_PLANNABLE",
                f"{flight.flight_number} on {flight.flight_date.isoformat()} is {flight.status.lower()} in the data: "
                "name only flights still to operate",
            )
        flights.append(flight)
    return flights


def named_flights_scope(
    handle: DataHandle,
    disruption: Disruption,
    *,
    now: datetime | None = None,
    recovery_hours: int = RECOVERY_HOURS,
    max_flights: int = MAX_FLIGHTS,
) -> NetworkScope:
    """The named flights as the restriction's set, each held for its minutes (`held_for`), and the later flights of
    their tails inheriting the hold; NetworkInputRefused otherwise."""
    flights = named_flights(handle, disruption)
    held = {f.flight_id: held_for(disruption, f) for f in flights}
    if disruption.iata_delay_code in DESTINATION_WEATHER_CODES:  # until it lands in weather within limits
        for f in flights:
            if disruption.scope.airport in (None, f.destination):
                held[f.flight_id] = (weather_clears(handle, f, held[f.flight_id][0]), held[f.flight_id][1])
    held = chained(handle, flights, held)
    start = min(f.scheduled_departure for f in flights)
    leaves = [f.scheduled_departure + timedelta(minutes=held[f.flight_id][0]) for f in flights]
    bases = sorted({basis for minutes, basis in held.values() if minutes})
    restriction = NetworkRestriction(
        kind="flights",
        airport=_shared_station(flights),
        window=Window(start=start, end=max([*leaves, start + timedelta(minutes=1)])),
        flight_numbers=[f.flight_number for f in flights],
        held_minutes={fid: minutes for fid, (minutes, _) in held.items() if minutes},
        basis="; ".join([disruption.cause, *bases[:2]]),
    )
    check_window_in_data(handle, restriction, flights)
    landed = max(f.scheduled_arrival + timedelta(minutes=held[f.flight_id][0]) for f in flights)
    horizon_end = max(restriction.window.end, landed) + timedelta(hours=recovery_hours)
    inherited = inherited_flights(handle, restriction, flights, horizon_end)
    if len(flights) + len(inherited) > max_flights:
        raise NetworkInputRefused(
            "TOO_MANY_FLIGHTS",
            f"{len(flights) + len(inherited)} flights are touched ({len(flights)} named, {len(inherited)} inheriting "
            f"their delay), more than {max_flights}: name fewer flights",
        )
    decision = min(now, start) if now is not None else start
    return NetworkScope(
        restriction=restriction,
        affected=flights,
        inherited=inherited,
        decision=decision,
        horizon_end=horizon_end,
        day_flights=[],
        known_at=now,
    )
