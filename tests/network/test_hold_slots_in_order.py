"""The hold plan gives a capacity cut's slots in ration-by-schedule order across the whole fleet: a regulation orders
the flights, not their fleets — planned one rating group after another, a widebody leaving at 06:20 took the slot a
narrowbody's 05:55 was owed (bad day seed 7, E004: EY218 held 65 minutes where its queue gave it 5)."""

from __future__ import annotations

from datetime import UTC, datetime

from skymarshal.intake.airport_facts import network_report
from skymarshal.network.objectives import NetworkPlanConfig
from skymarshal.network.validation import network_plans

NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)
REPORT = "Abu Dhabi airport is limited to 4 movements per hour from 05:45 to 09:30 UTC on January 21st"


def _hour(at: datetime) -> datetime:
    return at.replace(minute=0, second=0, microsecond=0)


def test_no_departure_held_to_its_slot_gets_a_later_hour_than_one_filed_after_it(handle):
    disruption, overlay = network_report(REPORT, handle, NOW)
    seen = handle.with_overlay(overlay)
    decision = network_plans(seen, disruption, config=NetworkPlanConfig(seconds_per_solve=0.5))
    held = next(v.plan for v in decision.plans if v.plan.objective == "hold")
    window = disruption.window
    assert window is not None
    slotted = [  # departures from AUH the window regulates, held only for their slot (no knock-on from a late tail)
        (a.scheduled_departure, _hour(a.new_departure), a.flight_id, a.aircraft_type)
        for a in held.actions
        if a.origin == "AUH" and a.new_departure is not None and window.start <= a.scheduled_departure < window.end
        and "knock-on" not in (a.reason or "")
    ]  # fmt: skip
    assert len({t for *_, t in slotted}) > 1  # more than one fleet queues
    for filed, hour, flight_id, _ in slotted:
        later = [(f, h, fid) for f, h, fid, _ in slotted if f > filed and h < hour]
        assert not later, f"{flight_id} (filed {filed:%H:%M}) slotted at {hour:%H:%M} after {later}"
