"""Issue 30 (build item 4): a flight that has diverted and is on the ground at its alternate gets "continue from the
alternate" — a leg alternate → destination on the same aircraft, its passengers on board, the crew's duty checked
with the extra sector by the crew rules, the whole crew's minimum rest when that runs out, the tail's later flights
re-timed behind it — while plans flying it from its origin stay refused.

Property (hypothesis) over generated diversions on the seeded airline: which flight (every type, short and long
haul), which alternate (a served airport near its destination, or its origin for a return), how long after off
blocks it landed. Validation here is the rules' layer (the agents' bounds are their own, tested elsewhere)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import get_args

import pytest
from diverted import diverted
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from skymarshal.arbitration.actions import CancelFlight, ContinueFlight, DelayFlight, RebookPassengers
from skymarshal.arbitration.continuation.plan import continuation_of, continuation_scenarios
from skymarshal.arbitration.models import RejectionCode
from skymarshal.arbitration.rotation.plan import planned
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.data import queries as q
from skymarshal.models.airports import great_circle_km
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.network.continuity import MAX_KNOCK_ON
from skymarshal.rules.curfew import check_movement_at
from skymarshal.rules.ferry import ferry_minutes
from skymarshal.rules.ftl_easa_limits import MIN_REST_ORO_FTL_235
from skymarshal.rules.rotation import rotation_breaks

NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)
DAYS = (date(2027, 1, 21), date(2027, 1, 22))
CODES = set(get_args(RejectionCode))


@pytest.fixture(scope="module")
def airline_flights(account):
    """Flights to and from the hub over two days (one per number and type: every type, short and long haul), and
    the served airports with a reference (a curfew can be checked there)."""
    handle = account.handle()
    start = datetime.combine(DAYS[0], datetime.min.time(), UTC)
    flights = q.flights_at_airport(handle, "AUH", start, start + timedelta(days=len(DAYS)))
    served = sorted({a for f in flights for a in (f.origin, f.destination) if q.airport_profile(handle, a)})
    chosen = {(f.flight_number, f.aircraft_type): f for f in flights if f.status == "SCHEDULED"}
    return sorted(chosen.values(), key=lambda f: f.flight_id), served


def _alternates(flight, served: list[str]) -> list[str]:
    near = sorted(
        (a for a in served if a not in (flight.origin, flight.destination)),
        key=lambda a: great_circle_km(a, flight.destination),
    )
    return [*near[:3], flight.origin]  # the nearest served airports, or back to where it came from


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_diverted_flight_gets_a_continuation_from_its_alternate_checked_by_the_rules(account, airline_flights, data):
    flights, served = airline_flights
    flight = data.draw(st.sampled_from(flights), label="flight")
    alternate = data.draw(st.sampled_from(_alternates(flight, served)), label="alternate")
    block = int((flight.scheduled_arrival - flight.scheduled_departure).total_seconds() // 60)
    minutes = data.draw(st.integers(20, max(21, block - 20)), label="landed after")
    ctx, landed = diverted(account.handle(), flight, alternate, minutes, NOW)
    plans = continuation_scenarios(ctx)
    assert plans and plans[0].scenario_id == f"continue:{alternate}"
    turn = timedelta(minutes=AIRCRAFT_TYPES[flight.aircraft_type].min_turn_minutes)
    for plan in plans:
        leg = continuation_of(plan)
        assert leg is not None and (leg.origin, leg.destination) == (alternate, flight.destination)
        assert leg.registration == flight.aircraft_registration and leg.departure >= landed + turn
        assert leg.arrival - leg.departure == timedelta(
            minutes=ferry_minutes(alternate, flight.destination, leg.aircraft_type)
        )
        assert set(leg.crew) >= set(leg.in_duty) and set(leg.reports) == set(leg.crew)
        checked = validate(ctx, plan)
        assert {r.code for r in checked.rejections} <= CODES
        assert not any("does not apply" in r.message for r in checked.rejections)  # never refused as an origin plan
        event(
            f"{plan.scenario_id.rsplit(':', 1)[0]}: "
            + (",".join(sorted({r.code for r in checked.rejections})) or "valid")
        )
        if checked.rejections:
            continue
        _holds(ctx, plan, leg)


def _holds(ctx, plan, leg: ContinueFlight) -> None:
    """What a valid continuation must satisfy, checked without the validation: no curfew at either end, the tail
    flying every later flight in sequence, a rested crew reporting after the minimum rest away from base."""
    for iata, at, movement in ((leg.origin, leg.departure, "departure"), (leg.destination, leg.arrival, "arrival")):
        assert not check_movement_at(ctx.profile(iata), at, movement).binding
    since = ctx.flight.departure
    for reg, flights in planned(ctx, plan.actions).items():
        broken = [b for b in rotation_breaks(reg, flights) if b.continuity and _leaves(flights, b.flight_id) >= since]
        assert broken == [], broken
    rested = [c for c in leg.crew if c not in leg.in_duty and c not in leg.called_out]
    for crew_id in rested:
        assert leg.reports[crew_id] - ctx.flight.arrival >= timedelta(minutes=MIN_REST_ORO_FTL_235["away"])
    # the knock-on is capped (network.continuity's rule): no later flight leaves over MAX_KNOCK_ON later than it
    # would have; beyond it the tail's flights are cancelled, each with its passengers re-accommodated
    for a in plan.actions:
        if isinstance(a, DelayFlight) and a.flight_id != ctx.flight.flight_id:
            later = q.get_flight(ctx.handle, a.flight_id)
            assert later is not None and a.new_departure - later.departure <= MAX_KNOCK_ON + timedelta(minutes=1)
    cancelled = {a.flight_id for a in plan.actions if isinstance(a, CancelFlight)}
    assert cancelled == {a.flight_id for a in plan.actions if isinstance(a, RebookPassengers)}


def _leaves(flights, flight_id):
    return next(f.departure for f in flights if f.flight_id == flight_id)


def test_the_crew_rules_refuse_a_continuation_that_runs_the_duty_out(account, airline_flights):
    """The in-duty check is not vacuous: the same continuation a day later is over the crew's FDP (ORO.FTL.205),
    and the plan built then is the whole crew's minimum rest."""
    flights, served = airline_flights
    flight = next(f for f in flights if f.aircraft_type == "B789")
    ctx, _ = diverted(account.handle(), flight, _alternates(flight, served)[0], 60, NOW)
    (first, *_) = continuation_scenarios(ctx)
    leg = continuation_of(first)
    assert leg is not None
    late = timedelta(hours=20)
    moved = leg.model_copy(update={"departure": leg.departure + late, "arrival": leg.arrival + late})
    refused = validate(ctx, first.model_copy(update={"actions": [moved]}))
    assert any(r.code == "CREW_ILLEGAL" and "ORO.FTL.205" in r.message for r in refused.rejections), refused.rejections


def test_the_continuation_moves_the_tails_later_flights_behind_it(account, airline_flights):
    flights, served = airline_flights
    flight = next(f for f in flights if f.aircraft_type in ("A320", "A321"))
    ctx, _ = diverted(account.handle(), flight, _alternates(flight, served)[0], 40, NOW)
    (first, *_) = continuation_scenarios(ctx)
    leg = continuation_of(first)
    assert leg is not None
    later = [a for a in first.actions if isinstance(a, DelayFlight)]
    ready = leg.arrival
    for a in later:  # each re-timed to leave after the one before it lands plus the minimum turn
        assert a.new_departure >= ready
        ready = a.new_arrival
    assert first.downstream_flights_delayed == len(later)
