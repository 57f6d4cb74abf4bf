"""Validation over the rotations a plan touches: every tail still flies its flights in sequence
(``rotation_plan.plan_breaks``: ROTATION_BROKEN, naming the flight and the tail), and every later flight the plan
moves (a delay's knock-on) still meets the rules at its new time — its curfews, and its rostered crew's duty
limits (CREW_CHAIN_BROKEN when the crew of a later flight would no longer be legal, or would not reach their next
rostered duty legally and the plan does not re-crew it: ``crew_chain``)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

from ...data import queries as q
from ...rules.curfew import Movement, check_movement_at
from ..actions import ContinueFlight, DelayFlight, RestCrew, SwapAircraft
from ..context import DisruptionContext
from ..crew.chain import answered_for, chain_checks, own_illegal, rostered_at
from ..crew.moved_reports import moved_report_checks
from ..memo_keys import AircraftDaysRead, FlightRead
from ..models import ConstraintCheck, RejectionCode, Scenario
from .plan import plan_breaks

Check = tuple[ConstraintCheck, RejectionCode | None]


def _check(constraint: str, clause: str, subject: str, status: str, message: str) -> ConstraintCheck:
    return ConstraintCheck(
        constraint=constraint, source="rules", clause=clause, subject=subject, status=status, message=message
    )


def rotation_checks(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    breaks = plan_breaks(ctx, s.actions)
    for b in breaks:
        yield (
            _check(f"rotation {b.registration}", b.clause, b.flight_id or b.registration, "illegal", b.message),
            ("ROTATION_BROKEN"),
        )
    if not breaks:
        tails = sorted(
            {a.to_registration for a in s.actions if a.kind == "swap_aircraft"} | {ctx.flight.aircraft_registration}
        )
        yield (
            _check(
                "rotation",
                "Aircraft continuity and minimum turn-round (tail assignment)",
                ", ".join(tails),
                "legal",
                f"{', '.join(tails)} can each fly the rest of their flights in sequence after this plan.",
            ),
            None,
        )
    yield from _later_swaps(ctx, s)
    yield from _knock_on(ctx, s)
    yield from _moved_only(ctx, s)


SWAPPABLE = ("SPARE", "IN_SERVICE")  # an AircraftDay that is neither grounded nor in the hangar


def _later_swaps(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """Each later flight the plan moves to another tail (a rotation carried over, a rescue's swaps): the new tail has
    an availability row for that flight's day, in service or spare and of the type — what Execute checks before it
    writes. A plan reaching past the data's last day (a rescue flown after the crew's rest) has no such row."""
    for a in s.actions:
        if not isinstance(a, SwapAircraft) or a.flight_id == ctx.flight.flight_id:
            continue
        flight = ctx.memo(FlightRead(a.flight_id), lambda a=a: q.get_flight(ctx.handle, a.flight_id))
        days = ctx.memo(AircraftDaysRead(a.to_registration), lambda a=a: q.aircraft_days(ctx.handle, a.to_registration))
        if flight is not None and any(
            d.date == flight.flight_date and d.status in SWAPPABLE and d.aircraft_type == a.to_aircraft_type
            for d in days
        ):
            continue
        day = flight.flight_date if flight is not None else "its day"
        yield (
            _check(
                f"tail swap {a.flight_id}",
                "fleet (aircraft availability)",
                a.to_registration,
                "illegal",
                f"{a.to_registration} has no {a.to_aircraft_type} availability in service or spare for {day}"
                f" (the day {a.flight_id} would fly on it).",
            ),
            "DATA_MISSING",
        )


def _moved_only(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """A later duty the plan tells to report later on a flight it does not re-time (it already leaves late enough):
    by the crew rules at the new report, as a re-timed flight's are in ``_knock_on``."""
    delayed = {a.flight_id for a in s.actions if isinstance(a, DelayFlight)}
    if any(isinstance(x, ContinueFlight) for x in s.actions):  # a continuation checks its own
        return
    for a in s.actions:
        if isinstance(a, RestCrew) and a.flight_id != ctx.flight.flight_id and a.flight_id not in delayed:
            yield from moved_report_checks(ctx, a)


def _knock_on(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """The later flights a delay moves, each at its new time: curfews at both ends and the rostered crew."""
    for a in s.actions:
        if not isinstance(a, DelayFlight) or a.flight_id == ctx.flight.flight_id:
            continue
        later_flight = ctx.memo(FlightRead(a.flight_id), lambda a=a: q.get_flight(ctx.handle, a.flight_id))
        if later_flight is None:
            yield (
                _check("knock-on", "data", a.flight_id, "illegal", f"{a.flight_id} is not in the data."),
                "DATA_MISSING",
            )
            continue
        movements: tuple[tuple[str, datetime, Movement], ...] = (
            (later_flight.origin, a.new_departure, "departure"),
            (later_flight.destination, a.new_arrival, "arrival"),
        )
        for iata, at, movement in movements:
            profile = ctx.profile(iata)
            if profile is None:
                continue
            finding = check_movement_at(profile, at, movement)
            if finding.binding:
                yield (
                    _check(
                        f"curfew {iata} ({movement}) {later_flight.flight_number}",
                        finding.clause,
                        later_flight.flight_id,
                        "illegal",
                        finding.message,
                    ),
                    "CURFEW",
                )
        try:
            rostered = rostered_at(ctx, later_flight, a.delay_minutes)
        except LookupError as exc:
            yield _check("crew chain", "ORO.FTL", later_flight.flight_id, "illegal", str(exc)), "DATA_MISSING"
            continue
        answered = answered_for(ctx, s, later_flight)  # re-crewed or re-timed with an earlier sector of the duty
        if not any(
            isinstance(x, ContinueFlight) for x in s.actions
        ):  # a continuation checks its own (continuation_checks)
            for told in (x for x in s.actions if isinstance(x, RestCrew) and x.flight_id == later_flight.flight_id):
                yield from moved_report_checks(ctx, told)
        for r in rostered:
            own = [] if r.crew_id in answered else own_illegal(r)
            if own:
                yield (
                    _check(
                        f"crew chain {later_flight.flight_number}",
                        own[0].clause,
                        r.crew_id,
                        "illegal",
                        f"{a.delay_minutes}-min knock-on on {later_flight.flight_id}: {r.name} may not operate it: "
                        f"{own[0].message}",
                    ),
                    "CREW_CHAIN_BROKEN",
                )
        yield from chain_checks(ctx, s, later_flight, rostered)
