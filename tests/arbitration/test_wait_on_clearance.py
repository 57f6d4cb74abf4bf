"""Issue 46 item 1 end to end (emulated AWS): a disruption carrying an estimate of when its cause clears gets the wait
until the estimate and until its upper bound as plans, each validated like every other plan (ranked, or refused with
a typed reason), and the decision records the estimate and its re-decision point. The clearance is set on the
disruption here (the reader fills it on its own elsewhere)."""

from __future__ import annotations

from datetime import timedelta
from typing import get_args

import pytest
from reported import flight_of

from skymarshal.analysis.base import decision_time
from skymarshal.arbitration.arbitrator import arbitrate
from skymarshal.arbitration.models import RejectionCode
from skymarshal.intake.disruption_facts import resolve_flight_report
from skymarshal.models.disruption import Clearance
from skymarshal.workflow.steps.rounds import run_rounds

AOG = "EY124 on January 20th had a bird strike at Frankfurt and needs an engine inspection before it can fly back"


@pytest.fixture(scope="module")
def decided(account):
    handle = account.handle()
    flight = flight_of(handle, AOG)
    facts, overlay = resolve_flight_report(AOG, flight, handle, None)
    at = decision_time(flight, None)
    clears = Clearance(
        kind="aircraft_release",
        expected=at + timedelta(hours=7),
        latest=at + timedelta(hours=9),
        source="policy",
        evidence="bird strike inspection, policy estimate",
    )
    facts = facts.model_copy(update={"clears": clears})
    collation = run_rounds(AOG, handle=handle, llm=None, disruption=facts, overlay=overlay)[1]
    decision = arbitrate(collation, AOG, handle=handle.with_overlay(overlay), llm=None, disruption=facts)
    return flight, clears, decision


def test_the_wait_until_the_estimate_and_its_bound_are_considered_and_validated(decided):
    _, clears, decision = decided
    ranked = [r.scenario for r in decision.ranked] + [
        s for s in (v.scenario for v in decision.rejected) if s.waits is not None
    ]
    waits = [s for s in ranked if s.waits is not None]
    assert {s.waits.bound for s in waits} == {False, True}, [s.scenario_id for s in ranked]
    for s in waits:
        assert s.departure is not None and s.departure >= (clears.latest if s.waits.bound else clears.expected)
        assert s.waits.redecide_at == clears.latest and "look again at" in s.title
    # each wait is validated like every other plan: ranked, or refused with typed reasons (here the crew's duty
    # limit and the night curfew at Frankfurt can refuse them: the rules decide, not the estimate)
    refused = {v.scenario.scenario_id: v.rejections for v in decision.rejected}
    valid = {r.scenario.scenario_id for r in decision.ranked} | set(decision.also_valid)
    for s in waits:
        assert s.scenario_id in valid or (
            refused[s.scenario_id] and {r.code for r in refused[s.scenario_id]} <= set(get_args(RejectionCode))
        )
    assert decision.estimate == clears and decision.redecide_at == clears.latest
