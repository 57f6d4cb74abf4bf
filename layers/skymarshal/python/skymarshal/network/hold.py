"""The hold plan: what an OCC does when it simply waits — every flight the restriction catches leaves at its
first slot, each tail's later flights follow at the type's minimum turn, nothing is swapped, ferried or
cancelled (but what a grounded tail cannot fly). It is the plan the others must beat (issue 46: never worse than
waiting), and the one the optimizer's cost model misses when it prices a cancelled journey below a long wait.

Slots are given by ration-by-schedule, as an ATFM regulation gives them (FAA Order JO 7210.3 ch. 17; EUROCONTROL
CASA, first planned first served): the flights are walked in the order of their movement at the airport as last
planned, and each one moving in the window takes the first clock hour with a departure (or arrival) left at the
restriction's rate — past the window's end too while its backlog lasts — less what the other groups and the
flights walked before it use; a flight moving outside the window needs no slot. A named flight's hold or a regulated flight's slot delay is a floor on its
departure, as for the optimizer (network.restriction.imposed_minutes).

Crews are not decided here: crewability (network.crewability) moves the reports of crews still at rest, gives a
held flight a reserve where its crew may no longer fly it, and re-times a next duty its crew's rest needs, as on
every plan.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from datetime import datetime, timedelta

from ..models.fleet import AIRCRAFT_TYPES
from ..models.network_plan import FlightAction, NetworkRestriction
from ..models.operational import Flight
from ..rules.slots import hour_capacity
from .continuity import flight_row
from .restriction import imposed_minutes
from .scope import NetworkScope
from .tails import cascade, scheduled_legs, tail_starts

MAX_HOLD = timedelta(hours=30)  # a slot search past this finds none: the flight keeps the last hour tried
HOUR = timedelta(hours=1)


def _hour(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def _turn(aircraft_type: str) -> timedelta:
    spec = AIRCRAFT_TYPES.get(aircraft_type)
    return timedelta(minutes=spec.min_turn_minutes if spec else 60)


class Slots:
    """Movements left per clock hour at the restricted airport for the flights the restriction regulates — those
    whose movement falls in its window — at the restriction's rate (in the hour it opens, for the part of the hour
    it covers: rules.slots.hour_capacity, as the validation counts it), continuing past the window's end while its
    backlog lasts, as an ATFM regulation gives slots to the flights entering during it (a closure's backlog at the
    airport's normal rate once it reopens); a flight moving before or after the window needs no slot, less what is
    used."""

    def __init__(self, r: NetworkRestriction, used: Counter[tuple[str, datetime]]):
        self.r = r
        self.used = used  # shared with the caller: what this plan takes is added to it
        self.start = r.window.start

    def rated(self) -> bool:
        return self.r.departures_per_hour is not None and self.r.arrivals_per_hour is not None

    def regulated(self, at: datetime) -> bool:
        return self.start <= at < self.r.window.end

    def left(self, kind: str, hour: datetime) -> bool:
        r = self.r
        rate = (r.departures_per_hour if kind == "D" else r.arrivals_per_hour) or 0
        normal = r.normal_departures_per_hour if kind == "D" else r.normal_arrivals_per_hour
        if not rate and not normal and hour >= r.window.end:  # a closure with no normal rate read: nothing counts after
            return True
        return hour_capacity(r.window, hour, rate, normal) - self.used[(kind, hour)] > 0

    def first(self, f: Flight, ready: datetime) -> datetime:
        """The flight's departure at its first slot from `ready` on (its arrival's slot too, landing there)."""
        if not self.rated():
            return ready
        airport, block, dep = self.r.airport, f.scheduled_arrival - f.scheduled_departure, ready
        leaves = f.origin == airport and self.regulated(ready)
        lands = f.destination == airport and self.regulated(ready + block)
        while dep - ready < MAX_HOLD:
            if leaves and not self.left("D", _hour(dep)):
                dep = _hour(dep) + HOUR
                continue
            if lands and not self.left("A", _hour(dep + block)):
                dep = _hour(dep + block) + HOUR - block
                continue
            break
        if leaves:
            self.used[("D", _hour(dep))] += 1
        if lands:
            self.used[("A", _hour(dep + block))] += 1
        return dep


def _order(f: Flight, airport: str) -> datetime:
    """Ration-by-schedule's order: the movement at the airport as last planned (its estimate, else the schedule, as
    a regulation takes the last filed off-blocks time), monotone along a tail's flights."""
    return f.arrival if f.destination == airport and f.origin != airport else f.departure


def _walk(rotations: Mapping[str, list[Flight]], airport: str) -> list[Flight]:
    """The flights in the walk's order: ration-by-schedule's, never before the tail's previous flight (an estimate
    can carry a late flight past the schedule of its tail's next one, which still follows it)."""
    keyed: list[tuple[datetime, int, str, Flight]] = []
    for rows in rotations.values():
        last: datetime | None = None
        for i, f in enumerate(sorted(rows, key=lambda x: x.scheduled_departure)):
            if f.status == "CANCELLED":
                continue
            last = _order(f, airport) if last is None else max(last, _order(f, airport))
            keyed.append((last, i, f.flight_id, f))
    return [f for *_, f in sorted(keyed, key=lambda k: k[:3])]


def gone_movements(rotations: Mapping[str, list[Flight]], scope: NetworkScope) -> Counter[tuple[str, datetime]]:
    """The regulated hours the flights gone before the plan take (in the air into the window, landing where they
    land): counted before any slot is given, as a regulation's slots go round the flights already airborne."""
    r, out = scope.restriction, Counter[tuple[str, datetime]]()
    slots = Slots(r, out)
    for rows in rotations.values():
        for f in rows:
            if f.status == "CANCELLED" or not scope.gone(f):
                continue
            if f.origin == r.airport and slots.regulated(f.departure):
                out[("D", _hour(f.departure))] += 1
            if f.destination == r.airport and slots.regulated(f.arrival):
                out[("A", _hour(f.arrival))] += 1
    return out


def hold_actions(
    rotations: Mapping[str, list[Flight]],
    scope: NetworkScope,
    used: Counter[tuple[str, datetime]],
    reasons: Mapping[str, str],
    unavailable: frozenset[str] = frozenset(),
) -> list[FlightAction]:
    """Every flight of the rotations held to its slot and its tail's knock-on; the in-scope flights and every
    flight it moves as rows. `used` (the airport's hours taken so far) gains this plan's movements."""
    r = scope.restriction
    in_scope = {f.flight_id for f in scope.flights}
    grounded = {f.flight_id for f in scope.flights if f.aircraft_registration in unavailable}
    cancelled = cascade(scheduled_legs(rotations), grounded, tail_starts(rotations)) if grounded else set()
    slots = Slots(r, used)
    ready_after: dict[str, tuple[datetime, str]] = {}  # tail -> (its previous flight's new arrival, that flight)
    flights = _walk(rotations, r.airport)
    actions = []
    for f in flights:
        if f.flight_id in cancelled:
            actions.append(flight_row(f, "cancel", reasons.get(f.flight_id, f"{f.aircraft_registration} is grounded")))
            continue
        if scope.gone(f):  # in the air or flown: it flies as it is (its hour counted by gone_movements)
            ready_after[f.aircraft_registration] = (f.arrival, f.flight_id)
            continue
        # no earlier than its estimate: an earlier decision's delay (a crew's rest, a release) still holds
        ready, why = max(f.scheduled_departure, f.departure), ""
        late = ready_after.get(f.aircraft_registration)
        if late is not None and late[0] + _turn(f.aircraft_type) > ready:
            ready = late[0] + _turn(f.aircraft_type)
            why = f"knock-on: {f.aircraft_registration} is late from {late[1]}; held to its minimum turn"
        imposed = imposed_minutes(r, f)
        if imposed is not None and f.scheduled_departure + timedelta(minutes=imposed) > ready:
            ready, why = f.scheduled_departure + timedelta(minutes=imposed), reasons.get(f.flight_id, why)
        departure = slots.first(f, ready)
        if departure > ready:
            why = f"{reasons.get(f.flight_id, why)}; held to its slot at {r.airport}"
        delay = departure - f.scheduled_departure
        ready_after[f.aircraft_registration] = (f.scheduled_arrival + delay, f.flight_id)
        if departure <= f.departure:  # as it was going to fly: unchanged
            if f.flight_id in in_scope:
                as_planned = "flies as scheduled" if delay <= timedelta(0) else "flies at its estimate"
                actions.append(
                    flight_row(
                        f, "operate", reasons.get(f.flight_id, as_planned), new_departure=f.departure,
                        new_arrival=f.arrival,
                    )
                )  # fmt: skip
            continue
        actions.append(
            flight_row(
                f,
                "retime",
                why or reasons.get(f.flight_id, "held"),
                new_departure=departure,
                new_arrival=f.scheduled_arrival + delay,
                delay_minutes=int(delay.total_seconds() // 60),
            )
        )
    return sorted(actions, key=lambda a: (a.scheduled_departure, a.flight_id))
