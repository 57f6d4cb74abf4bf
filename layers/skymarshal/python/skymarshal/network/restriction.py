"""The restriction an airport or airspace report states (closure, capacity per hour, ATC slot delay or rate), as the
network planner's input, and the refusals of a rate that limits nothing: a capacity at or above the airport's normal
rate, or a rate no scheduled hour of the window exceeds. A report that cannot become network plans is refused by
`NetworkInputRefused` (one typed line); network/scope.py adds the flights it touches.

A cut ("capacity cut to 50 %", "20 movements an hour") applies to the airport's declared rate, all airlines together,
and our flights wait for their ration-by-schedule slots (rules/slots.py); an airport that declares none (the hub)
keeps the airline's own busiest clock hour there that day as its "normal rate".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import datetime

from ..models.disruption import Disruption
from ..models.network_plan import NetworkInputCode, NetworkInputError, NetworkRestriction
from ..models.operational import Flight
from ..rules.slots import ESTIMATED, declared_cut, declared_rate, slots_delay_nobody


class NetworkInputRefused(ValueError):
    """The report cannot become network plans; `reason` says why in one line."""

    def __init__(self, code: NetworkInputCode, message: str):
        super().__init__(message)
        self.reason = NetworkInputError(code=code, message=message)


def _hour(moment: datetime) -> datetime:
    return moment.replace(minute=0, second=0, microsecond=0)


def movements_per_hour(
    flights: Iterable[Flight], airport: str, *, best_known: bool = False
) -> tuple[Counter[datetime], Counter[datetime]]:
    """Departures from and arrivals at `airport` per clock hour: as scheduled, or (`best_known`) at each flight's
    estimate where it has one."""
    departures: Counter[datetime] = Counter()
    arrivals: Counter[datetime] = Counter()
    for f in flights:
        if f.status == "CANCELLED":
            continue
        if f.origin == airport:
            departures[_hour(f.departure if best_known else f.scheduled_departure)] += 1
        if f.destination == airport:
            arrivals[_hour(f.arrival if best_known else f.scheduled_arrival)] += 1
    return departures, arrivals


def stated_figure(disruption: Disruption, name: str) -> float | None:
    """A number the report states (a capacity share, a rate, a slot delay), or None."""
    value = next((f.value for f in disruption.facts if f.name == name), None)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def restriction_of(disruption: Disruption, day_flights: list[Flight]) -> NetworkRestriction:
    """The restriction the disruption's facts state, with the airline's normal rate from `day_flights` (the flights
    touching the airport that day). A share is of the normal rate, floored, and never below one movement an hour
    unless it is zero; a total rate is split between departures and arrivals in the schedule's proportion."""
    airport = disruption.scope.airport or disruption.scope.airspace
    window = disruption.window
    if airport is None or window is None:
        raise NetworkInputRefused("NO_AFFECTED_FLIGHT", "a network disruption needs an airport and a window")
    departures, arrivals = movements_per_hour(day_flights, airport)
    normal_dep, normal_arr = max(departures.values(), default=0), max(arrivals.values(), default=0)
    share, rate, slot = (
        stated_figure(disruption, n) for n in ("capacity_share", "capacity_per_hour", "slot_delay_minutes")
    )
    evidence = "; ".join(f.evidence or "" for f in disruption.facts if f.name.startswith(("capacity", "slot")))
    common = {
        "airport": airport,
        "window": window,
        "normal_departures_per_hour": normal_dep,
        "normal_arrivals_per_hour": normal_arr,
    }
    if disruption.remarks == "closed":
        return NetworkRestriction(
            kind="closure", departures_per_hour=0, arrivals_per_hour=0, basis="closed: no movement", **common
        )
    dep: int | None = None
    arr: int | None = None
    if share is not None:
        dep, arr = (max(int(n * share), int(share > 0)) for n in (normal_dep, normal_arr))
    elif rate is not None:
        total = max(1, normal_dep + normal_arr)
        dep = round(rate * normal_dep / total)
        arr = int(rate) - dep
    if (cut := declared_cut(airport, window, share, rate, day_flights)) is not None:  # all airlines' rate, slots by RBS
        (dep, arr), (common["normal_departures_per_hour"], common["normal_arrivals_per_hour"]), held = cut
        common["held_minutes"] = held
        evidence = f"{evidence or 'capacity'}; ration-by-schedule slots {ESTIMATED}"
    if slot is not None or (dep is not None and disruption.iata_delay_code in range(81, 85)):
        return NetworkRestriction(
            kind="regulation",
            departures_per_hour=dep,
            arrivals_per_hour=arr,
            slot_delay_minutes=int(slot) if slot is not None else None,
            basis=evidence or "ATC regulation",
            **common,
        )
    if dep is None:
        raise NetworkInputRefused(
            "NO_AFFECTED_FLIGHT",
            f"the report says neither that {airport} is closed nor its capacity nor a slot delay: say 'closed', "
            "'capacity cut to 50 %', 'N movements per hour' or 'N-minute ATC slot delays'",
        )
    return NetworkRestriction(
        kind="capacity", departures_per_hour=dep, arrivals_per_hour=arr, basis=evidence or "capacity", **common
    )


def check_rate(restriction: NetworkRestriction, affected: list[Flight]) -> None:
    """A capacity at or above the normal rate, or a rate no scheduled hour of the window exceeds, is refused."""
    r = restriction
    if r.kind == "closure" or r.departures_per_hour is None or r.arrivals_per_hour is None:
        return
    if declared_rate(r.airport) is not None:  # the airport's declared rate: the slots' waits decide (rules/slots)
        if (
            line := slots_delay_nobody(r.airport, r.kind, (r.departures_per_hour, r.arrivals_per_hour), r.held_minutes)
        ) and r.slot_delay_minutes is None:
            raise NetworkInputRefused("NO_AFFECTED_FLIGHT", line)
        return
    if r.departures_per_hour >= r.normal_departures_per_hour and r.arrivals_per_hour >= r.normal_arrivals_per_hour:
        raise NetworkInputRefused(
            "CAPACITY_ABOVE_NORMAL",
            f"{r.departures_per_hour} departures and {r.arrivals_per_hour} arrivals an hour at {r.airport} is at or "
            f"above the airline's normal rate there ({r.normal_departures_per_hour} and "
            f"{r.normal_arrivals_per_hour}, its busiest hour that day): nothing to re-plan",
        )
    departures, arrivals = movements_per_hour(affected, r.airport, best_known=True)  # as the slots will be given
    inside = [h for h in {*departures, *arrivals} if _hour(r.window.start) <= h < r.window.end]
    over = any(departures[h] > r.departures_per_hour or arrivals[h] > r.arrivals_per_hour for h in inside)
    if not over and r.slot_delay_minutes is None:
        raise NetworkInputRefused(
            "NO_AFFECTED_FLIGHT",
            f"a {r.kind} of {r.departures_per_hour} departures and {r.arrivals_per_hour} arrivals an hour at "
            f"{r.airport} limits no flight: the window's busiest hour has {max(departures.values(), default=0)} and "
            f"{max(arrivals.values(), default=0)}",
        )


def regulated(r: NetworkRestriction, f: Flight) -> bool:
    """Does the restriction hold this flight: a named flight it holds, or its movement at the airport in the
    window?"""
    if r.kind == "flights":
        return f.flight_id in r.held_minutes
    w = r.window
    return (f.origin == r.airport and w.start <= f.scheduled_departure < w.end) or (
        f.destination == r.airport and w.start <= f.scheduled_arrival < w.end
    )


def imposed_minutes(r: NetworkRestriction, f: Flight) -> int | None:
    """Minutes after its schedule the flight may leave at the earliest: a named flight's hold, or the ATC slot
    delay of a regulated one; None: the restriction imposes none on it."""
    if r.kind == "flights" or f.flight_id in r.held_minutes:  # a named flight's hold, or its ration-by-schedule slot
        return r.held_minutes.get(f.flight_id)
    return r.slot_delay_minutes if r.slot_delay_minutes and regulated(r, f) else None
