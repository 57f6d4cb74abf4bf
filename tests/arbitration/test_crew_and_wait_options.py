"""Issue 30 (Done when): reports of the fatigue, fuelling and curfew kinds, in several phrasings each, get a considered
crew or wait option — a wait for the crew's minimum rest, a delay, the next departure after a curfew — each
validated like any plan and refused only with typed reasons; a flight on the ground at its alternate is never planned
from its origin, and is flown on from there instead (tests/arbitration/test_continuation.py)."""

from __future__ import annotations

from datetime import timedelta
from typing import get_args

import pytest
from reported import flight_of, reported
from test_what_if_plans import BIRD_STRIKE, _decide, considered

from skymarshal.arbitration.actions import DelayFlight, FerryAircraft, RestCrew
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.continuation.plan import continuation_of
from skymarshal.arbitration.models import RejectionCode
from skymarshal.data import queries as q
from skymarshal.data import schema
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.intake.corrected_facts import bare_disruption
from skymarshal.intake.disruption_facts import NoCauseStated, resolve_flight_report
from skymarshal.models.common import iso_z
from skymarshal.rules.ftl_easa_limits import MIN_REST_ORO_FTL_235
from skymarshal.workflow.steps.rounds import run_rounds

FATIGUE = (
    "The captain of EY124 on 21 January 2027 is unfit to fly due to fatigue",
    "EY124 21JAN27: FO fatigued after the delayed inbound, cannot operate",
    "EY101 on 21 January 2027: the first officer is too tired to fly",
    "Captain of EY12 on 22 Jan 2027 reports fatigue and has declared himself unfit",
)
FUELLING = (
    "EY124 on 21 January 2027 is delayed 2 hours at Frankfurt waiting for the fuel truck",
    "EY124 21 Jan 2027: fuelling delayed, the bowser has not arrived, expect 120 minutes",
    "Fuel supplier problem: EY124 on 21 January 2027 held 2 hours awaiting fuel",
)
CODES = set(get_args(RejectionCode))


def _typed(decision) -> None:
    """Every plan refused says why, in the typed vocabulary."""
    assert all(v.rejections and {r.code for r in v.rejections} <= CODES for v in decision.rejected)


@pytest.mark.parametrize("report", FATIGUE)
def test_a_fatigued_crew_member_gets_a_wait_for_the_minimum_rest(account, report):
    flight, facts, _, decision = _decide(account.handle(), report)
    assert any(f.name == "crew_fatigue" and f.source == "stated" for f in facts.facts)
    (tired,) = [str(f.value) for f in facts.facts if f.name == "crew_unavailable" and f.source == "data"]
    plans = considered(decision)
    rested = [s for s in plans if s.scenario_id.endswith(":rested")]
    assert rested, [s.scenario_id for s in plans]
    for plan in rested:
        (rest,) = [a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id]
        assert tired in rest.reports and tired in plan.crew_rested
        # ORO.FTL.235: never less than the shorter (away from base) minimum from the moment they stand down
        assert rest.reports[tired] - rest.stood_down_at >= timedelta(minutes=MIN_REST_ORO_FTL_235["away"])
        assert plan.departure is not None and plan.departure > rest.reports[tired]
        # a next duty the plan re-times (the tail's knock-on) reports as much later: the rest is counted to it there
        for told in (a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id != flight.flight_id):
            (later,) = [d for d in plan.actions if isinstance(d, DelayFlight) and d.flight_id == told.flight_id]
            seats = {d.crew_id: d for d in q.crew_assignments(account.handle(), told.flight_id)}
            by = timedelta(minutes=later.delay_minutes)
            assert all(at == seats[c].duty_start + by for c, at in told.reports.items()), told
    _typed(decision)


def test_a_sickness_is_not_cured_by_a_rest(account):
    """The same report without fatigue: the member stays unavailable, no wait for a rest is offered for them."""
    _, facts, _, decision = _decide(account.handle(), "The captain of EY124 on 21 January 2027 is sick")
    assert not any(f.name == "crew_fatigue" for f in facts.facts)
    assert not [s for s in considered(decision) if s.scenario_id.endswith(":rested")]


@pytest.mark.parametrize("report", FUELLING)
def test_a_fuelling_delay_gets_a_considered_wait(account, report):
    _, facts, _, decision = _decide(account.handle(), report)
    assert facts.iata_delay_code == 36
    waits = [s for s in considered(decision) if s.operates and s.kind == "delay"]
    assert waits and any(s.delay_minutes >= 120 for s in waits)
    ranked = [r.scenario for r in decision.ranked]
    assert any(s.operates for s in ranked) or all(
        s.scenario_id in {v.scenario.scenario_id for v in decision.rejected} for s in waits
    )
    _typed(decision)


@pytest.mark.parametrize("report", (*FATIGUE[:1], *FUELLING[:1]))
def test_a_wait_into_a_curfew_is_also_considered_after_it(account, report):
    """A delay whose departure or arrival falls in a curfew has a sibling leaving at the curfew's end (the next
    morning), itself free of curfews (its night's hotel and care counted in its cost)."""
    _, _, _, decision = _decide(account.handle(), report)
    plans = considered(decision)
    rejected = {v.scenario.scenario_id: {r.code for r in v.rejections} for v in decision.rejected}
    blocked = [s for s in plans if s.kind == "delay" and "CURFEW" in rejected.get(s.scenario_id, set())]
    assert blocked
    for s in blocked:
        after = [x for x in plans if x.kind == "delay" and x.delay_minutes > s.delay_minutes]
        assert any("CURFEW" not in rejected.get(x.scenario_id, set()) for x in after), s.scenario_id
    overnight = [x for x in plans if x.kind == "delay" and x.delay_minutes >= 8 * 60 and x.operates]
    assert overnight and all(x.cost_by_component.get("care", 0) > 0 for x in overnight), [
        (x.scenario_id, x.cost_by_component) for x in overnight
    ]


DIVERSION = (
    "EY12 on 21 January 2027 diverted to Manchester after a medical emergency",
    "EY12 21JAN27 is on the ground at MAN after a diversion for a sick passenger",
)


@pytest.mark.parametrize("report", DIVERSION)
def test_a_diverted_flight_is_never_planned_from_its_origin(account, report):
    """The flight on the ground at its alternate (its row DIVERTED there, as a DIV message makes it through the
    overlay): every plan that would fly it from its origin is refused ROTATION_BROKEN saying where it is."""
    base = account.handle()
    flight = flight_of(base, report)
    landed = flight.scheduled_departure + timedelta(minutes=70)
    diverted = RowPatch(
        table=schema.FLIGHTS,
        key={"flight_id": flight.flight_id},
        fields={"status": "DIVERTED", "diverted_to": "MAN", "estimated_arrival": iso_z(landed)},
        fact="diverted",
    )
    handle = base.with_overlay(Overlay(patches=[diverted]))
    try:
        facts = reported(handle, report)
    except NoCauseStated:  # "a sick passenger" states no AHM 730 cause: Validate asks, the duty manager gives 99
        facts = bare_disruption(flight, [], 99)
    decision = arbitrate(
        run_rounds(report, handle=handle, llm=None)[1], report, handle=handle, llm=None, disruption=facts
    )
    plans = considered(decision)
    operating = [p for p in plans if p.operates and continuation_of(p) is None]
    assert operating
    # the OCC's answer instead: flown on from the alternate to the destination on the same aircraft
    continued = [continuation_of(p) for p in plans if continuation_of(p) is not None]
    assert continued and all((c.origin, c.destination) == ("MAN", flight.destination) for c in continued if c)
    refused = {v.scenario.scenario_id: v.rejections for v in decision.rejected}
    for plan in operating:
        assert any(
            r.code == "ROTATION_BROKEN" and "on the ground at MAN" in r.message for r in refused[plan.scenario_id]
        )
    _typed(decision)


def test_an_outstation_aog_whose_crew_has_reported_gets_the_rescue_flown_after_their_rest(account):
    """The bird strike at Frankfurt, decided after EY124's crew reported: a rescue aircraft they cannot wait for on
    duty is also offered flown once the whole crew has had the minimum rest (ORO.FTL.235), each plan validated."""
    handle = account.handle()
    flight = flight_of(handle, BIRD_STRIKE)
    now = flight.scheduled_departure - timedelta(minutes=30)  # the crew reported 75 min before
    facts, overlay = resolve_flight_report(BIRD_STRIKE, flight, handle, now)
    collation = run_rounds(BIRD_STRIKE, handle=handle, llm=None, disruption=facts, overlay=overlay, now=now)[1]
    decision = arbitrate(
        collation, BIRD_STRIKE, handle=handle.with_overlay(overlay), llm=None, disruption=facts, now=now
    )
    plans = considered(decision)
    rescues = {p.registration: p for p in plans if p.kind == "rescue_aircraft" and not p.crew_rested}
    rested = [p for p in plans if p.kind == "rescue_aircraft" and p.crew_rested]
    assert rested, [p.scenario_id for p in plans]
    for plan in rested:
        (rest,) = [a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id]
        (ferry,) = [a for a in plan.actions if isinstance(a, FerryAircraft)]
        assert all(
            at - rest.stood_down_at >= timedelta(minutes=MIN_REST_ORO_FTL_235["away"]) for at in rest.reports.values()
        )
        assert plan.departure is not None and plan.departure > max(rest.reports.values()) > ferry.arrival
        plain = rescues.get(plan.registration)
        assert plain is not None and plain.delay_minutes < plan.delay_minutes  # the rest is what it waits for
    _typed(decision)
