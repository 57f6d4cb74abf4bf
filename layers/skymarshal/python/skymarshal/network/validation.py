"""Zero-tolerance validation of network plans: every flight of every plan against every binding constraint,
re-computed from the data under the plan's own times, tails and crews. One illegal flight rejects the plan, with
the flight and a typed reason named; what cannot be shown legal (a missing roster, an unknown airport) is not.

Per flight: a cancellation only of a flight still on the ground; an operated flight never departs or lands at a
closed airport inside the closure (the restriction and any AIRPORT_CLOSED NOTAM, the what-if one included), never
before its ATC slot; its tail airworthy at departure (Part-M M.A.403 / MEL) and, when swapped, of the planned type's
rating group and in range; curfews at both ends; the weather at arrival within the type's and the airport's limits;
every crew member legal on their whole duty (rostered, or the reserve called out for it), in position, and no
reserve called twice. Per plan: each tail's flights chain (origin = previous destination, the type's minimum turn)
and the airport's movements per hour stay within the restriction's rate.

`network_plans` runs the whole chain: scope → plans (network.plans) → crewable (network.crew) → totals →
validation, and ranks the valid plans by cost with the baseline always kept.
"""

from __future__ import annotations

import itertools
import time
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..models.disruption import Disruption
from ..models.fleet import AIRCRAFT_TYPES
from ..models.network_plan import (
    FlightAction,
    FlightRejection,
    FlightRejectionCode,
    NetworkDecision,
    NetworkPlan,
    NetworkRestriction,
    ValidatedNetworkPlan,
)
from ..models.operational import AirportProfile, Notam
from ..rules.crew import is_legal
from ..rules.curfew import check_movement_at
from ..rules.mel import aircraft_airworthiness
from ..rules.regulatory import nearest_observation
from ..rules.slots import hour_allowance
from ..rules.weather import assess_weather
from .continuity import touched_tails
from .crew import CrewData, next_duty, verdicts
from .crewability import make_crewable
from .objectives import NetworkPlanConfig
from .plan_roster import plan_times
from .plans import generate_plans
from .restriction import imposed_minutes
from .scope import NetworkScope, network_scope
from .tails import broken_turn, plan_legs, tail_starts
from .totals import PlanData, measure

NOT_CANCELLABLE = ("DEPARTED", "ARRIVED")
Found = tuple[FlightRejectionCode, str, str]  # code, flight id, message


def closed_movements(r: NetworkRestriction, closures: dict[str, list[Notam]], a: FlightAction) -> Iterator[Found]:
    """An operated flight that departs or lands at a closed airport: inside the restriction's closure window
    ([start, end): it may land at the reopening minute) or inside an AIRPORT_CLOSED NOTAM of either end."""
    if a.new_departure is None or a.new_arrival is None:
        return
    for iata, at, movement in ((a.origin, a.new_departure, "departs"), (a.destination, a.new_arrival, "lands")):
        shut = r.kind == "closure" and iata == r.airport and r.window.start <= at < r.window.end
        notam = next((n for n in closures.get(iata, []) if n.starts_at <= at < n.ends_at), None)
        if shut or notam is not None:
            until = notam.ends_at if notam is not None else r.window.end
            yield (
                "CLOSED_AIRPORT",
                a.flight_id,
                f"{a.flight_number} {movement} at {iata} at {at:%H:%MZ}, closed until {until:%H:%MZ}",
            )


class Checker:
    """The reads the checks need, once per run (a Query or GetItem on a key or GSI each, memoised)."""

    def __init__(self, crew: CrewData, scope: NetworkScope):
        self.crew, self.scope, self.handle = crew, scope, crew.data.handle
        self._profiles: dict[str, AirportProfile | None] = {}
        self._orders: dict[str, list] = {}
        self._wx: dict[tuple[str, str], list] = {}
        self._closures: dict[str, list[Notam]] = {}
        self.checks = 0

    def profile(self, iata: str) -> AirportProfile | None:
        if iata not in self._profiles:
            self._profiles[iata] = q.airport_profile(self.handle, iata)
        return self._profiles[iata]

    def closures(self, iata: str) -> list[Notam]:
        if iata not in self._closures:
            start = self.scope.decision - timedelta(days=1)
            found = q.notams(self.handle, iata, start, self.scope.horizon_end + timedelta(days=2))
            self._closures[iata] = [n for n in found if n.kind == "AIRPORT_CLOSED"]
        return self._closures[iata]

    def orders(self, registration: str) -> list:
        if registration not in self._orders:
            self._orders[registration] = self.scope.work_orders(self.handle, registration)
        return self._orders[registration]

    def weather(self, iata: str, at: datetime) -> list:
        key = (iata, at.strftime("%Y-%m-%d"))
        if key not in self._wx:
            day = at.replace(hour=0, minute=0, second=0, microsecond=0)
            self._wx[key] = q.weather(self.handle, iata, day - timedelta(hours=12), day + timedelta(hours=36))
        return self._wx[key]

    # ------------------------------------------------------------------ per flight

    def flight(self, a: FlightAction) -> Iterator[Found]:
        self.checks += 1
        if not a.operates:
            status = f.status if (f := self.crew.flight(a.flight_id)) else "SCHEDULED"
            if status in NOT_CANCELLABLE:
                yield (
                    "NOT_CANCELLABLE",
                    a.flight_id,
                    f"{a.flight_number} is {status.lower()}: it can no longer be cancelled",
                )
            return
        assert a.new_departure is not None and a.new_arrival is not None and a.new_registration is not None
        yield from self._closed(a)
        yield from self._slot(a)
        yield from self._tail(a)
        yield from self._curfews(a)
        yield from self._weather(a)

    def _closed(self, a: FlightAction) -> Iterator[Found]:
        self.checks += 2
        notams = {iata: self.closures(iata) for iata in (a.origin, a.destination)}
        yield from closed_movements(self.scope.restriction, notams, a)

    def _slot(self, a: FlightAction) -> Iterator[Found]:
        r = self.scope.restriction
        f = self.crew.flight(a.flight_id)
        minutes = imposed_minutes(r, f) if f is not None and a.action != "ferry" else None
        if minutes is None:
            return
        self.checks += 1
        slot = a.scheduled_departure + timedelta(minutes=minutes)
        what = (
            "the report's hold ends"
            if r.kind == "flights"
            else "its estimated ration-by-schedule slot"  # rules/slots.py: no issued slot is read
            if a.flight_id in r.held_minutes
            else "its ATC slot"
        )
        if a.new_departure is not None and a.new_departure < slot:
            yield (
                "BEFORE_SLOT",
                a.flight_id,
                f"{a.flight_number} leaves {a.new_departure:%H:%MZ}, before {what} {slot:%H:%MZ}",
            )

    def _tail(self, a: FlightAction) -> Iterator[Found]:
        assert a.new_registration is not None and a.new_departure is not None
        self.checks += 2
        planned = self.crew.flight(a.flight_id)
        spec = AIRCRAFT_TYPES.get(a.aircraft_type)
        if planned is not None and a.new_registration != a.registration:
            group = (
                AIRCRAFT_TYPES[planned.aircraft_type].rating_group if planned.aircraft_type in AIRCRAFT_TYPES else None
            )
            if spec is None or spec.rating_group != group:
                yield (
                    "TAIL_SWAP_INELIGIBLE",
                    a.flight_id,
                    f"{a.new_registration} ({a.aircraft_type}) is not of the {group} rating group the crew is rostered on",
                )
            elif planned.distance_km > spec.range_km:
                yield (
                    "TAIL_SWAP_INELIGIBLE",
                    a.flight_id,
                    f"{a.new_registration} ({a.aircraft_type}) cannot fly {planned.distance_km} km",
                )
        state = aircraft_airworthiness(
            self.orders(a.new_registration), a.new_departure, registration=a.new_registration
        )
        if not state.airworthy:
            worst = next(f for f in state.findings if f.status == "illegal")
            yield "AIRCRAFT_NOT_AIRWORTHY", a.flight_id, f"{a.new_registration}: {worst.clause}: {worst.message}"

    def _curfews(self, a: FlightAction) -> Iterator[Found]:
        assert a.new_departure is not None and a.new_arrival is not None
        for iata, at, movement in ((a.origin, a.new_departure, "departure"), (a.destination, a.new_arrival, "arrival")):
            self.checks += 1
            profile = self.profile(iata)
            if profile is None:
                yield "DATA_MISSING", a.flight_id, f"no airport reference for {iata}: its curfew cannot be checked"
                continue
            finding = check_movement_at(profile, at, movement)  # type: ignore[arg-type]  # the two Movement literals
            if finding.binding:
                yield "CURFEW", a.flight_id, f"{finding.clause}: {finding.message}"

    def _weather(self, a: FlightAction) -> Iterator[Found]:
        assert a.new_arrival is not None
        profile = self.profile(a.destination)
        current = nearest_observation(self.weather(a.destination, a.new_arrival), a.destination, a.new_arrival)
        if profile is None or current is None:
            return  # no forecast near the time: at risk, checked before dispatch (as the per-flight validation)
        self.checks += 1
        bad = next((f for f in assess_weather(current, profile, a.aircraft_type).findings if f.binding), None)
        if bad is not None:
            yield (
                "WEATHER_BELOW_LIMITS",
                a.flight_id,
                f"{a.destination} at {a.new_arrival:%H:%MZ}: {bad.clause}: {bad.message}",
            )

    # ------------------------------------------------------------------ per plan

    def crews(self, actions: list[FlightAction]) -> Iterator[Found]:
        replaced = {(c.replaced, a.flight_id): c for a in actions for c in a.crew_changes if c.replaced}
        calls: dict[str, set[str]] = {}
        for a in actions:
            for c in a.crew_changes:
                calls.setdefault(c.reserve, set()).add(c.replaced + "#" + (a.flight_id if not c.replaced else ""))
            if a.operates and a.action != "ferry" and not self.crew.assignments(a.flight_id):
                yield "DATA_MISSING", a.flight_id, f"{a.flight_number} has no rostered crew"
            if a.action == "ferry" and a.operates and {c.rank for c in a.crew_changes} < {"CPT", "FO"}:
                yield (
                    "CREW_ILLEGAL",
                    a.flight_id,
                    f"the ferry {a.origin}-{a.destination} has no captain and first officer",
                )
        for reserve, duties in calls.items():
            if len(duties) > 1:
                flight = next(a.flight_id for a in actions for c in a.crew_changes if c.reserve == reserve)
                yield "RESERVE_REUSED", flight, f"reserve {reserve} is called out for {len(duties)} duties"
        times, types = plan_times(actions), {a.flight_id: a.aircraft_type for a in actions}
        for v in verdicts(self.crew, actions):
            if v.proposed is None or not v.sectors:
                continue
            self.checks += 1
            change = replaced.get((v.crew_id, v.sectors[0]))
            if change is None:
                following = next_duty(self.crew, v, times, types) if v.short_of_rest_only else None
                if following is not None and (v.crew_id, following.sectors[0]) in replaced:
                    continue  # a reserve takes the next duty the delay leaves them short of rest before
                if v.out_of_position:
                    yield "CREW_NOT_IN_POSITION", v.sectors[0], v.out_of_position
                elif not v.legal:
                    yield "CREW_ILLEGAL", v.sectors[0], f"{v.rank} {v.crew_id} on {v.proposed.label}: {v.reason()}"
                continue
            member = self.crew.members([change.reserve]).get(change.reserve)
            findings = self.crew.findings(member, v.proposed, change.report_at, times) if member else ()
            if member is None or not is_legal(findings):
                why = next(
                    (f"{f.clause}: {f.message}" for f in findings if f.status == "illegal"), "not in CrewMembers"
                )
                yield (
                    "CREW_ILLEGAL",
                    v.sectors[0],
                    f"reserve {change.reserve} for {v.crew_id} on {v.proposed.label}: {why}",
                )

    def rotations(self, actions: list[FlightAction]) -> Iterator[Found]:
        """Every turn of every tail the plan touches, over its flights to the data's end (not only the turns next
        to the plan's rows: a cancelled flight hides the turn it breaks): ROTATION_BROKEN naming flight and tail."""
        rotations = self.crew.data.rotations
        starts = tail_starts(rotations)
        touched = touched_tails(actions)
        for registration, legs in plan_legs(actions, rotations).items():
            if registration not in touched or not legs:
                continue
            self.checks += 1
            if starts.get(registration, legs[0].origin) != legs[0].origin:
                yield (
                    "ROTATION_BROKEN",
                    legs[0].flight_id,
                    f"{registration} is at {starts[registration]}, not at {legs[0].origin} for {legs[0].flight_id}",
                )
            for previous, leg in itertools.pairwise(legs):
                self.checks += 1
                why = broken_turn(previous, leg)
                if why:
                    yield "ROTATION_BROKEN", leg.flight_id, why

    def capacity(self, actions: list[FlightAction]) -> Iterator[Found]:
        r = self.scope.restriction
        if r.departures_per_hour is None or r.arrivals_per_hour is None:
            return
        by_id = {a.flight_id: a for a in actions}
        used: Counter[tuple[str, datetime]] = Counter()
        last: dict[tuple[str, datetime], str] = {}
        for f in self.scope.day_flights:
            if f.flight_id not in by_id and f.status != "CANCELLED":
                by_id[f.flight_id] = FlightAction(
                    flight_id=f.flight_id, flight_number=f.flight_number, origin=f.origin, destination=f.destination,
                    action="operate", scheduled_departure=f.scheduled_departure, scheduled_arrival=f.scheduled_arrival,
                    new_departure=f.departure, new_arrival=f.arrival,  # where it stands: an estimate holds its hour
                    registration=f.aircraft_registration, new_registration=f.aircraft_registration, aircraft_type=f.aircraft_type,
                )  # fmt: skip
        # a flight gone before the plan (in the air into the window) lands where it lands: an hour it fills past
        # the rate is the regulation's to absorb, and only the plan's own movements can break it
        gone = {f.flight_id for f in [*self.scope.day_flights, *self.scope.affected] if self.scope.gone(f)}
        fixed: Counter[tuple[str, datetime]] = Counter()
        for a in sorted(by_id.values(), key=lambda a: a.new_departure or a.scheduled_departure):
            for kind, iata, at in (("D", a.origin, a.new_departure), ("A", a.destination, a.new_arrival)):
                if iata == r.airport and at is not None and r.window.start <= at < r.window.end:
                    hour = at.replace(minute=0, second=0, microsecond=0)
                    used[(kind, hour)] += 1
                    fixed[(kind, hour)] += a.flight_id in gone
                    last[(kind, hour)] = a.flight_id
        for (kind, hour), count in sorted(used.items()):
            rate = r.departures_per_hour if kind == "D" else r.arrivals_per_hour
            allowed = max(hour_allowance(rate, r.window.start, hour), fixed[(kind, hour)])
            self.checks += 1
            if count > allowed:
                what = "departures" if kind == "D" else "arrivals"
                yield (
                    "CAPACITY_EXCEEDED",
                    last[(kind, hour)],
                    f"{count} {what} at {r.airport} in the {hour:%H}:00 hour, {allowed} allowed",
                )


def validate_plan(checker: Checker, plan: NetworkPlan) -> ValidatedNetworkPlan:
    """Every flight of the plan, then the plan's crews, rotations and the airport's hours."""
    before = checker.checks
    found = [x for a in plan.actions for x in checker.flight(a)]
    found += [*checker.crews(plan.actions), *checker.rotations(plan.actions), *checker.capacity(plan.actions)]
    return ValidatedNetworkPlan(
        plan=plan,
        flights_checked=len(plan.actions),
        checks=checker.checks - before,
        rejections=[FlightRejection(code=c, flight_id=f, message=m) for c, f, m in found],
    )


def network_plans(
    handle: DataHandle,
    disruption: Disruption,
    *,
    now: datetime | None = None,
    config: NetworkPlanConfig | None = None,
    budget_s: float | None = None,
) -> NetworkDecision:
    """The disruption's network plans, made crewable and validated; valid plans first by cost, the baseline kept.
    Raises network.restriction.NetworkInputRefused (a typed one-line reason) for a report that cannot be planned.
    `budget_s`: the optimizer's share of the caller's deadline (network.plans.generate_plans)."""
    config = config or NetworkPlanConfig()
    started = time.monotonic()
    scope = network_scope(
        handle, disruption, now=now, recovery_hours=config.recovery_hours, max_flights=config.max_flights
    )
    seconds = {"scope": time.monotonic() - started}
    reads: list[CrewData] = []  # the optimizer's roster reads, shared with the crewability and validation below

    def crews(data: PlanData) -> CrewData:
        reads.append(CrewData(data, scope.decision))
        return reads[0]

    plans, data, more = generate_plans(handle, scope, disruption, config, budget_s, crews=crews)
    seconds.update(more)
    crew = reads[0] if reads else CrewData(data, scope.decision)
    began = time.monotonic()
    crewed = []
    for plan in plans:
        actions, replanned = make_crewable(crew, plan.actions)
        rows, totals = measure(actions, data, optimizer_cost=plan.totals.optimizer_cost)
        crewed.append(plan.model_copy(update={"actions": rows, "totals": totals, "replanned": replanned}))
    seconds["crew"] = time.monotonic() - began
    began = time.monotonic()
    checker = Checker(crew, scope)
    validated = [validate_plan(checker, p) for p in crewed]
    seconds["validation"] = time.monotonic() - began
    validated.sort(key=lambda v: (not v.valid, v.plan.objective == "baseline", v.plan.totals.cost_usd))
    return NetworkDecision(
        restriction=scope.restriction,
        flights_affected=len(scope.affected),
        flights_inheriting=len(scope.inherited),
        decision_at=scope.decision,
        plans=validated,
        seconds={k: round(v, 2) for k, v in seconds.items()},
    )
