"""A flight an earlier decision delayed into a capacity window is regulated by it: the scope holds it and the hold
plan gives it a slot, so waiting stays a valid plan (bad day seed 1, E003: a flight retimed by E001 into the fog's
first hour was counted by the capacity check at its estimate but was not in the plan, so the hold plan broke the
05:00 rate and a 24-cancellation plan became rank 1)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from skymarshal.data import queries as q
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.data.schema import FLIGHTS
from skymarshal.intake.airport_facts import network_report
from skymarshal.models.common import iso_z
from skymarshal.network.objectives import NetworkPlanConfig
from skymarshal.network.scope import moving_in_window, network_scope
from skymarshal.network.validation import network_plans

RATE = 6  # movements an hour: below the window's busiest hour, so the slots bind
NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)
START = datetime(2027, 1, 22, 14, 20, tzinfo=UTC)
REPORT = "Abu Dhabi airport is limited to {rate} movements per hour from 14:20 to 17:00 UTC on January 22nd"


@pytest.fixture(scope="module")
def late_into_window(account):
    """The seeded day with the last AUH departure scheduled before 14:00 estimated to leave at 14:05."""
    handle = account.handle()
    before = [
        f
        for f in q.flights_at_airport(handle, "AUH", START - timedelta(hours=3), START.replace(minute=0))
        if f.origin == "AUH"
    ]
    late = max(before, key=lambda f: f.scheduled_departure)
    departure = START.replace(minute=5)
    patch = RowPatch(
        table=FLIGHTS,
        key={"flight_id": late.flight_id},
        fields={
            "estimated_departure": iso_z(departure),
            "estimated_arrival": iso_z(departure + (late.scheduled_arrival - late.scheduled_departure)),
            "status": "DELAYED",
        },
        fact="earlier_decision",
    )
    return handle, patch, late


def _seen(handle, patch, overlay):
    """The report's what-if picture with the earlier decision's estimate in it."""
    return handle.with_overlay(Overlay(patches=[patch, *overlay.patches], additions=overlay.additions))


def test_a_flight_estimated_into_the_first_hour_is_in_the_scope(late_into_window):
    handle, patch, late = late_into_window
    disruption, overlay = network_report(REPORT.format(rate=RATE), handle, NOW)
    window = disruption.window
    assert window is not None and late.scheduled_departure < window.start
    assert late.flight_id in {f.flight_id for f in moving_in_window(_seen(handle, patch, overlay), "AUH", window)}
    # the same flight at its schedule is outside the window: without the estimate it is not regulated
    plain = {f.flight_id for f in moving_in_window(handle, "AUH", window)}
    assert late.flight_id not in plain


def test_the_hold_plan_keeps_the_rate_with_the_estimated_flight_in_it(late_into_window):
    handle, patch, late = late_into_window
    disruption, overlay = network_report(REPORT.format(rate=RATE), handle, NOW)
    seen = _seen(handle, patch, overlay)
    scope = network_scope(seen, disruption)
    assert late.flight_id in {f.flight_id for f in scope.affected}
    decision = network_plans(seen, disruption, config=NetworkPlanConfig(seconds_per_solve=1.0))
    held = next(v for v in decision.plans if v.plan.objective == "hold")
    assert held.valid, [r.message for r in held.rejections]
    row = next(a for a in held.plan.actions if a.flight_id == late.flight_id)
    assert row.new_departure is not None and row.new_departure >= START.replace(minute=5)
