"""The crew a plan's execution must call (arbitration/crew/contacts.py): who counts, and that the execution-risk
criterion counts them, so of two plans alike in everything else the one that disturbs fewer people ranks first."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.actions import AddCabinCrew, CancelFlight, DelayFlight, ReassignCrew
from skymarshal.arbitration.crew.contacts import CREW_DELAY_NOTICE_MINUTES, crew_to_contact, moved_flights
from skymarshal.arbitration.models import Scenario, ValidatedScenario
from skymarshal.arbitration.ranking import CONTACT_RISK_CAP, Precedent, RankingWeights, rank_order, raw_criteria

pytestmark = pytest.mark.unit
STD = datetime(2027, 1, 20, 10, 25, tzinfo=UTC)
BLOCK = timedelta(hours=7)
NEUTRAL = Precedent(0.5, 0, "")
ROSTER = {"F1": ["C1", "C2", "C3"], "F2": ["C1", "C4"]}  # C1 flies both sectors


def _delay(flight_id: str, minutes: int) -> DelayFlight:
    dep = STD + timedelta(minutes=minutes)
    return DelayFlight(flight_id=flight_id, delay_minutes=minutes, new_departure=dep, new_arrival=dep + BLOCK)


def _scenario(scenario_id: str, actions: list, crew_to_contact: int = 0, **changes) -> Scenario:
    fields = {
        "scenario_id": scenario_id,
        "kind": "delay",
        "title": scenario_id,
        "sources": ["generator"],
        "actions": actions,
        "operates": True,
        "registration": "A6-BLQ",
        "aircraft_type": "B789",
        "departure": STD,
        "arrival": STD + BLOCK,
        "arrival_airport": "FRA",
        "delay_minutes": 40,
        "arrival_delay_minutes": 40,
        "passengers_impacted": 200,
        "cost_usd": 20_000.0,
        "crew_to_contact": crew_to_contact,
    }
    return Scenario(**{**fields, **changes})


def test_who_is_called():
    later = _scenario("late", [_delay("F1", CREW_DELAY_NOTICE_MINUTES), _delay("F2", CREW_DELAY_NOTICE_MINUTES)])
    assert moved_flights(later) == ["F1", "F2"]
    assert crew_to_contact(later, ROSTER) == 4  # C1 is one person on two sectors
    assert crew_to_contact(_scenario("short", [_delay("F1", CREW_DELAY_NOTICE_MINUTES - 1)]), ROSTER) == 0
    cancel = _scenario("cancel", [CancelFlight(flight_id="F1", reason="t")])
    assert crew_to_contact(cancel, ROSTER) == 3  # every rostered member released
    reserves = ReassignCrew(flight_id="F1", replacements={"C2": "R2"}, report_at=STD)
    extra = AddCabinCrew(flight_id="F1", crew_ids=["R9"], report_at=STD, flights=["F1"])
    # C2 released and R2 called out; R9 added; C1 and C3 report 60 min later
    assert crew_to_contact(_scenario("reserve", [reserves, extra, _delay("F1", 60)]), ROSTER) == 5


def _valid(scenario: Scenario) -> ValidatedScenario:
    return ValidatedScenario(scenario=scenario, checks=[], rejections=[])


def test_of_two_plans_alike_but_for_the_crew_to_call_the_one_calling_fewer_ranks_first():
    actions = [_delay("F1", 40)]
    quiet, busy = _scenario("b-quiet", actions, crew_to_contact=2), _scenario("a-busy", actions, crew_to_contact=14)
    order = rank_order([_valid(busy), _valid(quiet)], RankingWeights(), [NEUTRAL, NEUTRAL])
    assert [i for i, *_ in order] == [1, 0]  # not the scenario id's order, which would put a-busy first
    assert order[0][1] > order[1][1]


@given(fewer=st.integers(0, 60), more=st.integers(1, 60), weights=st.builds(RankingWeights))
def test_calling_more_crew_never_makes_a_plan_more_reliable_nor_rank_it_higher(fewer, more, weights):
    more = fewer + more
    a, b = (_scenario(f"s{n}", [_delay("F1", 40)], crew_to_contact=n) for n in (fewer, more))
    ra, rb = raw_criteria(_valid(a))["execution_reliability"], raw_criteria(_valid(b))["execution_reliability"]
    assert rb <= ra and ra - rb <= CONTACT_RISK_CAP + 1e-9
    order = rank_order([_valid(b), _valid(a)], weights, [NEUTRAL, NEUTRAL])
    assert order[0][1] >= order[1][1] and (order[0][0] == 1 or order[0][1] == order[1][1])
