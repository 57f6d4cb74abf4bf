"""The crew agent's "at most N minutes" is the least of every rostered member's latest legal delay, a next duty's
rest included (arbitration/bounds.py): a plan past it is refused — unless it answers for a member's later duty (a
reserve for it, its report moved after a rest, or the duty cancelled), when the crew rules judge each member at the
plan's own delay instead (validation's second layer), so a wait that re-crews one member's next morning is not
refused for the limit that re-crewing lifts."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import bare_scenario, utc

from skymarshal.arbitration.actions import CancelFlight, DelayFlight, ReassignCrew, RestCrew
from skymarshal.arbitration.bounds import CrewMaxDelayBound, check_bound

pytestmark = pytest.mark.unit
BOUND = CrewMaxDelayBound(agent="crew_compliance", text="at most 135 min", crew_ids=("C1", "C2"), max_delay_minutes=135)
STD = utc(2027, 1, 20, 7, 40)


def _delay(minutes: int, *answers) -> object:
    dep = STD + timedelta(minutes=minutes)
    actions = [DelayFlight(flight_id="F1", delay_minutes=minutes, new_departure=dep, new_arrival=dep), *answers]
    return bare_scenario(actions).model_copy(update={"operates": True, "delay_minutes": minutes})


ANSWERS = {
    "none": lambda c: (),
    "reserve": lambda c: (ReassignCrew(flight_id="F9", replacements={c: "R1"}, report_at=STD + timedelta(hours=20)),),
    "rest": lambda c: (RestCrew(flight_id="F9", reports={c: STD + timedelta(hours=22)}, stood_down_at=STD),),
}


@given(minutes=st.integers(0, 600), answer=st.sampled_from(sorted(ANSWERS)), member=st.sampled_from(["C1", "C2", "X"]))
def test_past_the_limit_only_a_plan_answering_for_a_members_later_duty_goes_on(minutes, answer, member):
    _, code = check_bound(_delay(minutes, *ANSWERS[answer](member)), BOUND)
    answered = answer != "none" and member in BOUND.crew_ids
    assert (code == "CREW_LIMIT_EXCEEDED") == (minutes > 135 and not answered)


def test_a_cancelled_next_duty_answers_for_its_member():
    plan = _delay(190, CancelFlight(flight_id="F9", reason="no crew")).model_copy(
        update={"crew_next_duty_cancelled": ["C2"]}
    )
    check, code = check_bound(plan, BOUND)
    assert code is None and check.status == "legal" and "crew rules judge each member" in check.message
    assert check_bound(_delay(190, CancelFlight(flight_id="F9", reason="x")), BOUND)[1] == "CREW_LIMIT_EXCEEDED"
