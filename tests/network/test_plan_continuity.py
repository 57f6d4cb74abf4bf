"""Issue 30 on the seeded airline: the AUH fog closures' network plans leave every tail they touch flying its flights in
sequence over the whole data (the library's rotation rules over each tail's flights, the plan applied), and the
validation checks every turn of those tails: a plan whose repair past the horizon is taken away (the baseline's
cancelled return of a cancelled outbound) is refused ROTATION_BROKEN naming the flight and the tail."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.data import queries as q
from skymarshal.intake.airport_facts import network_report
from skymarshal.models.network_plan import FlightAction
from skymarshal.network.continuity import touched_tails
from skymarshal.network.crew import CrewData
from skymarshal.network.objectives import NetworkPlanConfig
from skymarshal.network.plans import generate_plans
from skymarshal.network.scope import network_scope
from skymarshal.network.validation import Checker, network_plans, validate_plan
from skymarshal.rules.rotation import rotation_breaks

NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)
FOGS = (
    "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 21st",
    "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd",
)
DATA = (datetime(2027, 1, 1, tzinfo=UTC), datetime(2027, 3, 1, tzinfo=UTC))


def _new_breaks(handle, plan) -> list[str]:
    """Continuity breaks the plan adds on the tails it touches, over every flight of theirs in the data."""
    out = []
    moved = {a.flight_id: a for a in plan.actions if a.action != "ferry"}
    for tail in sorted(touched_tails(plan.actions)):
        before = q.rotation(handle, tail, *DATA)
        after = {f.flight_id: f for f in before if f.flight_id not in moved}
        for a in moved.values():
            if a.new_registration == tail:
                f = q.get_flight(handle, a.flight_id)
                assert f is not None
                after[a.flight_id] = f.model_copy(
                    update={
                        "aircraft_registration": tail,
                        "aircraft_type": a.aircraft_type,
                        "estimated_departure": a.new_departure,
                        "estimated_arrival": a.new_arrival,
                    }
                )
        had = {(b.code, b.flight_id) for b in rotation_breaks(tail, before) if b.continuity}
        out += [
            b.message
            for b in rotation_breaks(tail, list(after.values()))
            if b.continuity and (b.code, b.flight_id) not in had
        ]
    return out


def test_every_valid_fog_plan_leaves_every_touched_tail_flying_in_sequence(account):
    """The 21 January closure (its baseline cancelled EY169 and left EY170 on a tail at AUH); the 22nd's is executed
    in the workflow's fixed sequence (tests/workflow/test_disruption_sequences.py)."""
    handle = account.handle()
    disruption, overlay = network_report(FOGS[0], handle, NOW)
    seen = handle.with_overlay(overlay)
    decision = network_plans(seen, disruption, config=NetworkPlanConfig(seconds_per_solve=0.5))
    valid = [v.plan for v in decision.plans if v.valid]
    assert any(p.objective == "baseline" for p in valid)
    for plan in valid:
        assert _new_breaks(handle, plan) == [], plan.plan_id


def test_a_plan_without_its_repair_past_the_horizon_is_refused_naming_the_flight_and_the_tail(account):
    handle = account.handle()
    disruption, overlay = network_report(FOGS[0], handle, NOW)
    seen = handle.with_overlay(overlay)
    scope = network_scope(seen, disruption, now=NOW)
    plans, data, _ = generate_plans(seen, scope, disruption, NetworkPlanConfig(objectives={}, hold=False))
    (baseline,) = plans
    repaired = [a for a in baseline.actions if a.scheduled_departure > scope.horizon_end and a.action == "cancel"]
    assert repaired, "the baseline cancels past the horizon what its cancellations strand"
    checker = Checker(CrewData(data, scope.decision), scope)
    assert validate_plan(checker, baseline).valid
    dropped = repaired[0]
    broken = baseline.model_copy(update={"actions": [a for a in baseline.actions if a != dropped]})
    rejections = validate_plan(checker, broken).rejections
    assert any(
        r.code == "ROTATION_BROKEN" and r.flight_id == dropped.flight_id and dropped.registration in r.message
        for r in rejections
    ), rejections


def test_a_flight_swapped_onto_a_tail_still_flying_into_the_day_is_refused_at_its_inbound_turn(account):
    """The 21 January fog's rotations start at each tail's flight into the day (EY170-20270120 lands A6-BLL at AUH
    at 09:15Z, read newest-first on the tail's GSI): EY123 swapped onto A6-BLL 70 min after it is refused naming the
    inbound, which a rotation starting at midnight never saw (Execute's re-check refused it after validation)."""
    handle = account.handle()
    disruption, overlay = network_report(FOGS[0], handle, NOW)
    seen = handle.with_overlay(overlay)
    scope = network_scope(seen, disruption, now=NOW)
    plans, data, _ = generate_plans(seen, scope, disruption, NetworkPlanConfig(objectives={}, hold=False))
    (baseline,) = plans
    into = q.last_flight_before(seen, "A6-BLL", datetime(2027, 1, 21, tzinfo=UTC))
    assert into is not None and into.flight_id == "EY170-20270120"
    assert data.rotations["A6-BLL"][0].flight_id == into.flight_id
    ey123 = q.get_flight(seen, "EY123-20270121")
    assert ey123 is not None
    leaves = into.arrival + timedelta(minutes=70)
    swap = FlightAction(
        flight_id=ey123.flight_id, flight_number=ey123.flight_number, origin=ey123.origin,
        destination=ey123.destination, action="tail_swap", scheduled_departure=ey123.scheduled_departure,
        scheduled_arrival=ey123.scheduled_arrival, new_departure=leaves, new_arrival=leaves + (ey123.scheduled_arrival - ey123.scheduled_departure),
        registration=ey123.aircraft_registration, new_registration="A6-BLL", aircraft_type="B789",
    )  # fmt: skip
    edited = baseline.model_copy(update={"actions": [*baseline.actions, swap]})
    checker = Checker(CrewData(data, scope.decision), scope)
    rejections = validate_plan(checker, edited).rejections
    assert any(
        r.code == "ROTATION_BROKEN" and r.flight_id == ey123.flight_id and "EY170-20270120" in r.message
        for r in rejections
    ), rejections
