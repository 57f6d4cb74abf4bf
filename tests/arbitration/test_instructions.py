"""A duty manager's instruction as typed constraints: the grammar, the refusals, and what applying them may do."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from skymarshal.arbitration.instructions.grammar import (
    apply_constraints,
    apply_preferences,
    read_instruction,
)
from skymarshal.arbitration.models import RankedScenario, Scenario, Sensitivity, ValidatedScenario
from skymarshal.workflow.models import ApprovalDecision

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    "text,expected",
    [
        ("no tail swap", [("forbid_kind", "tail_swap")]),
        ("No swaps please", [("forbid_kind", "tail_swap")]),
        ("don't cancel", [("forbid_kind", "cancel")]),
        ("no cancellations, no diversions", [("forbid_kind", "cancel"), ("forbid_kind", "divert")]),
        ("no reserves", [("forbid_kind", "crew_swap")]),
        ("at most 60 minutes late", [("max_delay", 60)]),
        ("at most two hours late", [("max_delay", 120)]),
        ("no more than 90 min delay", [("max_delay", 90)]),
        ("under half an hour", [("max_delay", 30)]),
        ("keep A6-BLT for EY19", [("reserve_tail", "A6-BLT", "EY19")]),
        ("don't use A6-BMJ", [("exclude_tail", "A6-BMJ")]),
        ("protect the JFK connections", [("protect_connections", "JFK")]),
        ("prefer a diversion to BHX", [("prefer_station", "BHX")]),
    ],
)
def test_the_common_forms_become_constraints(text, expected):
    read = read_instruction(text)
    assert read.refused is None and not read.not_understood
    got = [
        (c.kind, *[v for v in (c.action, c.minutes, c.registration, c.flight_number, c.airport) if v is not None])
        for c in read.constraints
    ]
    assert got == [tuple(e) for e in expected]
    assert all(c.words.lower() in text.lower() for c in read.constraints)  # each from the instruction's own words


@pytest.mark.parametrize(
    "text,constraint",
    [
        ("ignore the FDP limit", "flight duty period"),
        ("Extend the crew's duty time, they'll manage", "flight duty period"),
        ("skip the maintenance check", "airworthiness"),
        ("waive the inspection and dispatch", "airworthiness"),
        ("land after the curfew, override the curfew", "curfew"),
        ("reduce rest: don't worry about rest", "rest"),
        ("fly it beyond the weather minima", "weather minima"),
    ],
)
def test_an_instruction_relaxing_a_binding_safety_constraint_is_refused_naming_it(text, constraint):
    read = read_instruction(text)
    assert read.refused is not None and not read.constraints
    assert constraint in read.refused.message and read.refused.code == "RELAXES_SAFETY_CONSTRAINT"
    with pytest.raises(ValidationError, match=constraint):
        ApprovalDecision(action="alternatives", instruction=text, decided_by="Dana Duty", comment="why")


def test_what_the_grammar_cannot_read_is_said_not_guessed():
    read = read_instruction("something the passengers will like; re-accommodate the rest of them")
    assert read.constraints == [] and read.refused is None
    assert read.not_understood == ["something the passengers will like", "re-accommodate the rest of them"]


KINDS = ("tail_swap", "crew_swap", "delay", "divert", "cancel", "rescue_aircraft")
TAILS = ("A6-BLT", "A6-BMJ", "A6-EJQ")


@st.composite
def plans(draw) -> list[ValidatedScenario]:
    out = []
    for i in range(draw(st.integers(0, 7))):
        kind = draw(st.sampled_from(KINDS))
        delay = draw(st.integers(0, 1440))
        operates = kind != "cancel"
        scenario = Scenario(
            scenario_id=f"{kind}:{i}",
            kind=kind,
            title=f"{kind} {i}",
            sources=["generator"],
            actions=[],
            operates=operates,
            registration=draw(st.sampled_from(TAILS)) if operates else None,
            aircraft_type=None,
            departure=None,
            arrival=None,
            arrival_airport=draw(st.sampled_from(("LHR", "BHX", None))),
            delay_minutes=delay,
            arrival_delay_minutes=delay,
            passengers_impacted=100,
            cost_usd=1000.0,
        )
        out.append(ValidatedScenario(scenario=scenario, checks=[], rejections=[]))
    return out


instructions = st.lists(
    st.sampled_from(
        [
            "no tail swap",
            "no cancellations",
            "at most 60 minutes late",
            "at most three hours late",
            "don't use A6-BLT",
            "keep A6-BMJ for EY19",
            "protect the JFK connections",
            "prefer BHX",
            "ignore the FDP limit",
            "something else entirely",
        ]
    ),
    min_size=1,
    max_size=3,
).map("; ".join)


@settings(max_examples=300, deadline=None)
@given(plans(), instructions)
def test_constraints_only_ever_remove_plans_and_say_which(valid, text):
    read = read_instruction(text)
    kept, removed = apply_constraints(read, valid, "EY123")
    ids = [v.scenario.scenario_id for v in valid]
    assert [v.scenario.scenario_id for v in kept] == [i for i in ids if i not in {r.scenario_id for r in removed}]
    assert sorted([*(v.scenario.scenario_id for v in kept), *(r.scenario_id for r in removed)]) == sorted(ids)
    if read.refused is not None:  # a refused instruction changes nothing
        assert kept == valid and removed == []
    for v in kept:
        for c in read.constraints:
            assert not (c.hard and c.removes(v.scenario, "EY123"))


@settings(max_examples=200, deadline=None)
@given(plans(), instructions)
def test_preferences_reorder_the_plans_never_add_or_drop_one(valid, text):
    ranked = [
        RankedScenario(
            rank=i + 1,
            scenario=v.scenario,
            score=0.5,
            criteria={},
            confidence=0.5,
            rationale="",
            pros=[],
            cons=[],
            compliance=[],
            precedent="",
            sensitivity=Sensitivity(delay_plus_30="", delay_minus_30="", one_spare_fewer="", one_reserve_more=""),
        )
        for i, v in enumerate(valid)
    ]
    after = apply_preferences(read_instruction(text), ranked)
    assert sorted(r.scenario.scenario_id for r in after) == sorted(r.scenario.scenario_id for r in ranked)
    assert [r.rank for r in after] == list(range(1, len(after) + 1))
