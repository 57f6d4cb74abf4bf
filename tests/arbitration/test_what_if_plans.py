"""Reports whose content the data does not hold: the what-if overlay makes every agent and the arbitrator plan
for what the report says (issue 16's reports), and the options answer the facts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from reported import flight_of

from skymarshal.analysis.base import decision_time
from skymarshal.analysis.crew import CALL_OUT
from skymarshal.arbitration.actions import DelayFlight, FerryAircraft, RestCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.data import queries as q
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.workflow.steps.rounds import run_rounds

BIRD_STRIKE = (
    "EY124 on January 20th had a bird strike at Frankfurt and needs an engine inspection before it can fly back"
)
ATC = "EY45 on 18 Jan 2027 was cancelled by ATC flow control at its destination"


def _decide(handle, prompt):
    flight = flight_of(handle, prompt)
    facts, overlay = resolve_flight_report(prompt, flight, handle, None)
    collation = run_rounds(prompt, handle=handle, llm=None, disruption=facts, overlay=overlay)[1]
    decision = arbitrate(collation, prompt, handle=handle.with_overlay(overlay), llm=None, disruption=facts)
    return flight, facts, overlay, decision


@pytest.fixture(scope="module")
def bird_strike(account):
    return _decide(account.handle(), BIRD_STRIKE)


@pytest.fixture(scope="module")
def atc_slot(account):
    return _decide(account.handle(), ATC)


def considered(decision):
    return [r.scenario for r in decision.ranked] + [v.scenario for v in decision.rejected]


def test_a_bird_strike_becomes_an_aog_work_order_with_its_policy_estimate_cited(bird_strike, account):
    flight, facts, overlay, _ = bird_strike
    assert (facts.iata_delay_code, facts.family) == (51, "damage_automation")
    (added,) = [a for a in overlay.additions if a.table == "MaintenanceWorkOrders"]
    assert added.item["aog"] and added.item["station"] == flight.origin == "FRA"
    assert added.item["ata_chapter"] == "72" and added.item["estimated_labour_hours"] == 6.0
    policy = [f for f in facts.facts if f.source == "policy" and f.name != "reading_confidence"]
    assert policy and "bird strike inspection" in str(policy[0].evidence)
    # the tables are untouched: only a handle with the overlay sees the work order
    assert all(
        o.work_order_id != added.item["work_order_id"]
        for o in q.work_orders_for_aircraft(account.handle(), flight.aircraft_registration)
    )
    seen = q.work_orders_for_aircraft(account.handle().with_overlay(overlay), flight.aircraft_registration)
    assert added.item["work_order_id"] in {o.work_order_id for o in seen}


def test_an_outstation_aog_considers_waiting_for_the_release_and_a_rescue_aircraft(bird_strike):
    flight, _, _, decision = bird_strike
    plans = considered(decision)
    assert any(s.kind == "delay" for s in plans)  # waiting for the release
    rescues = [s for s in plans if s.kind == "rescue_aircraft"]
    assert rescues, [s.scenario_id for s in plans]
    for rescue in rescues:
        assert rescue.kinds[0] == "rescue_aircraft" and "tail_swap" not in rescue.kinds
        (ferry,) = [a for a in rescue.actions if isinstance(a, FerryAircraft)]
        assert ferry.destination == flight.origin and ferry.origin != flight.origin
        assert rescue.departure >= ferry.arrival and "ferry" in rescue.cost_by_component
    assert decision.ranked and all(c.status != "illegal" for r in decision.ranked for c in r.compliance)


def test_the_crews_of_flights_a_rescue_re_times_report_later_when_still_at_rest(bird_strike, account):
    """The rescue's knock-on moves the tail's next flights hours late: their crews, not yet called, are told to report
    as much later (CS FTL.1.205(d)) instead of waiting on duty from the roster's report, so a rescue is a legal plan
    and outranks cancelling the tail's flights (it was refused CREW_CHAIN_BROKEN by FDPs counted from the roster)."""
    flight, _, _, decision = bird_strike
    notice = decision_time(flight, None) + CALL_OUT
    ranked = [r.scenario for r in decision.ranked]
    moved = [
        (s, a)
        for s in ranked
        for a in s.actions
        if isinstance(a, RestCrew) and a.flight_id != flight.flight_id and s.kind == "rescue_aircraft"
    ]
    assert moved, [s.scenario_id for s in ranked]
    assert ranked[0].operates
    for plan, told in moved:
        (delay,) = [d for d in plan.actions if isinstance(d, DelayFlight) and d.flight_id == told.flight_id]
        seats = {d.crew_id: d for d in q.crew_assignments(account.handle(), told.flight_id)}
        for crew_id, at in told.reports.items():
            assert seats[crew_id].duty_start > notice  # still at rest when the plan is decided
            assert at == seats[crew_id].duty_start + timedelta(minutes=delay.delay_minutes)


def test_an_atc_regulation_is_a_slot_delay_never_an_on_time_tail_swap(atc_slot):
    flight, facts, overlay, decision = atc_slot
    assert facts.iata_delay_code == 83
    slot = next(f for f in facts.facts if f.name == "slot_delay_minutes")
    assert slot.source == "policy" and slot.value == 60
    assert overlay.patches[0].fields["delay_minutes"] == 60 > flight.delay_minutes
    assert not any(s.kind == "tail_swap" for s in considered(decision))
    assert decision.ranked[0].scenario.kind == "delay" and decision.ranked[0].scenario.delay_minutes >= 60


HYDRAULIC_AT_LHR = "EY12 London to Abu Dhabi on 21 January has a hydraulic leak found at the gate, aircraft u/s"


def _spare_at_lhr(rectified: bool) -> list[RowPatch]:
    """The B787-9 spare A6-BLU positioned at Heathrow; the generated airline leaves a cat B MEL item of it
    expired, which `rectified` closes."""
    patches = [
        RowPatch(
            table="AircraftAvailability",
            key={"aircraft_registration": "A6-BLU", "date": "2027-01-21"},
            fields={"station": "LHR"},
            fact="test",
        )
    ]
    if rectified:
        patches.append(
            RowPatch(
                table="MaintenanceWorkOrders",
                key={"work_order_id": "WO-BLU-D0002"},
                fields={"status": "CLOSED", "closed_at": "2027-01-17T06:00:00Z"},
                fact="test",
            )
        )
    return patches


@pytest.mark.parametrize("rectified", [False, True])
def test_a_spare_at_the_outstation_is_swapped_to_or_its_refusal_shown(account, rectified):
    """A spare at the outstation is a considered plan: first when it is airworthy, and otherwise rejected with its
    typed reason (the duty manager's "why not the spare?" answered), never ranked."""
    handle = account.handle()
    flight = flight_of(handle, HYDRAULIC_AT_LHR)
    facts, overlay = resolve_flight_report(HYDRAULIC_AT_LHR, flight, handle, None)
    overlay = Overlay(patches=[*overlay.patches, *_spare_at_lhr(rectified)], additions=overlay.additions)
    collation = run_rounds(HYDRAULIC_AT_LHR, handle=handle, llm=None, disruption=facts, overlay=overlay)[1]
    decision = arbitrate(collation, HYDRAULIC_AT_LHR, handle=handle.with_overlay(overlay), llm=None, disruption=facts)
    rejected = {v.scenario.scenario_id: {r.code for r in v.rejections} for v in decision.rejected}
    if rectified:
        assert decision.ranked[0].scenario.scenario_id == "tail_swap:A6-BLU"
    else:
        assert "AIRCRAFT_NOT_AIRWORTHY" in rejected["tail_swap:A6-BLU"]
        assert all(r.scenario.kind != "tail_swap" for r in decision.ranked)
