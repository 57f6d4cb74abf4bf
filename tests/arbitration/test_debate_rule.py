"""The debate rule (arbitration/debate/rule.py) and an agent's concession (agents/revision.py concede): pure functions,
so their invariants are properties — a debate always stops by round 5, never starts without an open issue, and
the agreement accounts for every action of the recommended plan."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.agents.revision import concede
from skymarshal.arbitration.bounds import CrewIllegalBound, CrewMaxDelayBound
from skymarshal.arbitration.debate.assess import inside_crew_limit
from skymarshal.arbitration.debate.rule import (
    ACTION_DOMAIN,
    agreement,
    confidence_gap,
    next_step,
    unheard_business_agents,
)
from skymarshal.arbitration.models import Scenario, ScenarioRejection, ValidatedScenario
from skymarshal.data.schema import AGENTS, BUSINESS_AGENTS
from skymarshal.models.agent_response import RecoveryProposal
from skymarshal.models.debate import HARD_MAX_ROUNDS, DebateIssue, DisputedPlan, Position, StatedConflict

pytestmark = pytest.mark.unit

CREW_LIMIT = "flight duty period exceeds 13:00 (crew_compliance)"


def _plan(scenario_id: str, kind: str = "delay", minutes: int = 240) -> DisputedPlan:
    return DisputedPlan(
        scenario_id=scenario_id,
        title=f"{kind} {minutes}",
        kind=kind,
        delay_minutes=minutes,
        constraint=CREW_LIMIT,
        owners=["crew_compliance"],
    )


position_st = st.builds(
    lambda status, confidence, plans, rejected: (status, confidence, plans, min(rejected, plans)),
    st.sampled_from(["ok", "ok", "degraded", "error"]),
    st.floats(0, 1),
    st.integers(0, 3),
    st.integers(0, 3),
)
positions_st = st.dictionaries(st.sampled_from(AGENTS), position_st, min_size=1).map(
    lambda drawn: {
        agent: Position(
            agent=agent,
            status=status,
            confidence=confidence,
            proposals=[f"p{i}" for i in range(plans)],
            plans=[f"s{i}" for i in range(plans)],
            rejected=[_plan(f"s{i}") for i in range(rejected)],
        )
        for agent, (status, confidence, plans, rejected) in drawn.items()
    }
)


@given(st.lists(positions_st, min_size=1, max_size=8), st.integers(2, 5), st.floats(0, 1))
def test_a_debate_stops_by_its_maximum_and_never_starts_without_an_open_issue(rounds, max_rounds, threshold):
    previous = None
    for round_, positions in enumerate(rounds, start=2):
        step = next_step(round_, positions, previous, max_rounds=max_rounds, threshold=threshold)
        assert step.again == (step.conflict is not None)
        if not step.issues:
            assert not step.again and step.outcome == "agreement"
        if step.again:
            assert step.conflict.round == round_ + 1 <= min(max_rounds, HARD_MAX_ROUNDS)
            assert step.conflict.issues == step.issues
        else:
            break
        previous = positions
    else:
        return
    assert round_ <= max(max_rounds, 2)


def test_the_same_positions_after_a_debate_round_stop_it_as_no_change():
    rejected = Position(
        agent="network", status="ok", confidence=0.8, proposals=["p"], plans=["s"], rejected=[_plan("s")]
    )
    positions = {"network": rejected, "crew_compliance": Position(agent="crew_compliance", status="ok", confidence=0.8)}
    first = next_step(2, positions, None, max_rounds=5, threshold=0.5)
    assert first.again and first.conflict.round == 3
    again = next_step(3, positions, positions, max_rounds=5, threshold=0.5)
    assert (again.again, again.outcome) == (False, "no_change")
    assert again.issues == first.issues  # still open, listed for the duty manager


def test_two_rounds_when_debate_is_turned_off_with_the_issue_listed():
    positions = {"network": Position(agent="network", status="ok", confidence=0.8, plans=["s"], rejected=[_plan("s")])}
    step = next_step(2, positions, None, max_rounds=2, threshold=0.5)
    assert (step.again, step.outcome) == (False, "maximum") and step.issues


@given(positions_st)
def test_only_a_business_agent_all_of_whose_plans_are_illegal_is_unheard(positions):
    flagged = {i.holdouts[0] for i in unheard_business_agents(positions)}
    for agent, p in positions.items():
        all_illegal = p.status == "ok" and bool(p.plans) and len({r.scenario_id for r in p.rejected}) >= len(p.plans)
        assert (agent in flagged) == (agent in BUSINESS_AGENTS and all_illegal)


@given(positions_st, st.floats(0, 1))
def test_a_confidence_gap_is_an_issue_only_past_the_threshold(positions, threshold):
    ok = [p.confidence for p in positions.values() if p.status == "ok"]
    gap = confidence_gap(positions, threshold)
    assert bool(gap) == (len(ok) >= 2 and max(ok) - min(ok) > threshold)
    for issue in gap:  # the least confident agent is the one asked to move
        assert positions[issue.holdouts[0]].confidence == min(ok)


kinds = st.sampled_from(sorted(ACTION_DOMAIN))
issue_st = st.builds(
    lambda holdouts: DebateIssue(kind="confidence_gap", agents=holdouts, holdouts=holdouts, text="t"),
    st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2, unique=True),
)


@given(st.lists(st.tuples(kinds, st.text(min_size=1, max_size=8)), max_size=6), st.lists(issue_st, max_size=3))
def test_the_agreement_accounts_for_every_action_and_agrees_only_without_open_issues(actions, issues):
    result = agreement(actions, issues)
    held = {a for i in issues for a in i.holdouts}
    expected_agreed = [text for kind, text in actions if not held & set(ACTION_DOMAIN[kind])]
    assert result.agreed_actions == expected_agreed
    assert len(result.open_items) == len(issues) + len(actions) - len(expected_agreed)
    assert result.status == ("agreed" if not issues else "partial" if expected_agreed else "open")


def test_an_agent_withdraws_what_the_stated_conflict_shows_illegal_and_keeps_the_rest():
    proposals = [
        RecoveryProposal(kind="delay", title="Delay 238", detail="", parameters={"delay_minutes": 238}),
        RecoveryProposal(kind="delay", title="Delay 90", detail="", parameters={"delay_minutes": 90}),
        RecoveryProposal(kind="tail_swap", title="Swap", detail="", parameters={"registration": "A6-BLT"}),
    ]
    issue = DebateIssue(
        kind="safety_vs_business",
        agents=["crew_compliance", "network"],
        holdouts=["network"],
        text="t",
        disputed={"network": [_plan("delay:240", minutes=240)]},
    )
    kept, notes = concede("network", proposals, StatedConflict(round=3, issues=[issue]))
    assert [p.title for p in kept] == ["Delay 90", "Swap"]  # 238 rounds up to the arbitrator's 240
    assert len(notes) == 1 and "debate round 3" in notes[0] and CREW_LIMIT in notes[0]
    assert concede("guest_experience", proposals, StatedConflict(round=3, issues=[issue]))[0] == proposals
    assert concede("network", proposals, None) == (proposals, [])


def test_a_delay_past_the_crews_limit_is_proposed_again_inside_it_once():
    proposals = [
        RecoveryProposal(kind="delay", title="Delay 180", detail="", parameters={"delay_minutes": 180}),
        RecoveryProposal(kind="delay", title="Delay 90", detail="", parameters={"delay_minutes": 90}),
    ]
    past = _plan("delay:180", minutes=180).model_copy(update={"inside_minutes": 150})
    issue = DebateIssue(
        kind="safety_vs_business",
        agents=["crew_compliance", "network"],
        holdouts=["network"],
        text="t",
        disputed={"network": [past]},
    )
    kept, notes = concede("network", proposals, StatedConflict(round=3, issues=[issue]))
    assert [(p.kind, p.estimated_delay_minutes or p.parameters["delay_minutes"]) for p in kept] == [
        ("delay", 90),
        ("delay", 150),
    ]
    assert kept[1].parameters["delay_minutes"] == 150 and "inside the crew's duty limit" in notes[1]
    # already proposing that delay: nothing added twice
    again = [*proposals, kept[1]]
    assert [p.title for p in concede("network", again, StatedConflict(round=3, issues=[issue]))[0]].count(
        kept[1].title
    ) == 1


def _delay(minutes: int, *codes: str) -> ValidatedScenario:
    scenario = Scenario(
        scenario_id=f"delay:{minutes}",
        kind="delay",
        title=f"Delay {minutes} min",
        sources=["network"],
        actions=[],
        operates=True,
        registration="A6-BLE",
        aircraft_type=None,
        departure=None,
        arrival=None,
        arrival_airport="LHR",
        delay_minutes=minutes,
        arrival_delay_minutes=minutes,
        passengers_impacted=100,
        cost_usd=1000.0,
    )
    rejections = [ScenarioRejection(code=code, message=code) for code in codes]
    return ValidatedScenario(scenario=scenario, checks=[], rejections=rejections)


MAX_107 = CrewMaxDelayBound(agent="crew_compliance", text="t", crew_ids=("C1",), max_delay_minutes=107)
ILLEGAL_FROM_96 = CrewIllegalBound(agent="crew_compliance", text="t", crew_ids=("C2",), from_delay_minutes=96)
ILLEGAL_NOW = CrewIllegalBound(agent="crew_compliance", text="t", crew_ids=("C2",), from_delay_minutes=0)


@pytest.mark.parametrize(
    ("plan", "bounds", "inside"),
    [
        (_delay(180, "CREW_ILLEGAL"), [MAX_107], 105),  # rounded down: the arbitrator rounds a delay up to 5 min
        (_delay(180, "CREW_ILLEGAL"), [MAX_107, ILLEGAL_FROM_96], 95),  # the stricter crew bound governs
        (_delay(180, "CREW_ILLEGAL"), [ILLEGAL_NOW], None),  # illegal at any delay: nothing inside
        (_delay(180, "CREW_LIMIT_EXCEEDED"), [MAX_107], 105),
        (_delay(180, "CREW_ILLEGAL", "CURFEW"), [MAX_107], None),  # not the crew's limit alone
        (_delay(100, "CREW_ILLEGAL"), [MAX_107], None),  # not longer than the limit: nothing to shorten
    ],
)
def test_inside_the_limit_is_the_longest_delay_every_crew_bound_allows(plan, bounds, inside):
    assert inside_crew_limit(plan, bounds) == inside


def test_nothing_inside_the_limit_is_earlier_than_the_delay_the_flight_already_has():
    assert inside_crew_limit(_delay(180, "CREW_ILLEGAL"), [MAX_107], at_least=100) == 105
    assert inside_crew_limit(_delay(180, "CREW_ILLEGAL"), [MAX_107], at_least=110) is None
