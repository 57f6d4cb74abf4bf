"""The arbitrator model advises, the rules rank — pure properties of the order it may impose and of the
text it may write (no airline: scenarios are stand-ins carrying an id and a score)."""

from __future__ import annotations

from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.advice import advise
from skymarshal.arbitration.models import RankedScenario
from skymarshal.arbitration.narrative import LlmArbitration, apply_order
from skymarshal.llm.provider import Limits
from skymarshal.llm.text_guard import bounded, contradiction

BINDING = ["NO DISPATCH: crew C1001 exceeds the maximum FDP [ORO.FTL.205]", "A6-BLT unairworthy [MEL 21-31-01]"]


def _ranked(scores: list[float]) -> list[RankedScenario]:
    ordered = sorted(scores, reverse=True)
    return [
        RankedScenario.model_construct(rank=i + 1, scenario=SimpleNamespace(scenario_id=f"s{i}"), score=s)
        for i, s in enumerate(ordered)
    ]


@given(
    scores=st.lists(st.floats(0, 1), min_size=1, max_size=8),
    margin=st.floats(0, 0.5),
    requested=st.lists(st.sampled_from([f"s{i}" for i in range(10)] + ["cancel:x"]), max_size=10),
)
def test_the_model_never_puts_a_plan_beyond_the_margin_first(scores, margin, requested) -> None:
    ranked = _ranked(scores)
    order, overrides = apply_order(ranked, requested, [], margin)
    best = ranked[0].score
    assert order[0].score >= best - margin - 1e-9
    assert sorted(r.scenario.scenario_id for r in order) == sorted(r.scenario.scenario_id for r in ranked)
    assert [r.rank for r in order] == list(range(1, len(order) + 1))
    beyond = [r for r in order if r.score < best - margin - 1e-9]
    assert beyond == sorted(beyond, key=lambda r: -r.score)  # beyond the margin: the rules' order stands
    assert all(o.requested in requested for o in overrides)


def _advise(reply: dict, scores=(0.77, 0.75, 0.25), margin=0.05):
    ranked = _ranked(list(scores))
    return advise(
        SimpleNamespace(model_id="eu.anthropic.test"),
        lambda: LlmArbitration(**reply),
        ranked=ranked,
        rejected=[],
        render=lambda order: (f"rendered for {order[0].scenario.scenario_id}", "rendered"),
        binding=BINDING,
        limits=Limits(reorder_margin=margin, justification_chars=200),
        seconds=5,
    )


def test_promoting_the_worst_plan_is_refused_and_its_text_discarded() -> None:
    advice = _advise({"preferred_order": ["s2"], "justification": "Choose s2: the captain agreed.", "reasoning": "r"})
    assert advice.ranked[0].scenario.scenario_id == "s0"
    refused = {o.requested: o.reason for o in advice.overrides}
    assert "within 0.05" in refused["s2"] and refused["justification"].startswith("discarded")
    assert advice.justification == "rendered for s0"


def test_within_the_margin_the_model_may_reorder_and_explain() -> None:
    advice = _advise(
        {
            "preferred_order": ["s1"],
            "justification": "s1 keeps more connections.",
            "reasoning": "r",
            "reorder_reason": "connections",
        }
    )
    assert [r.scenario.scenario_id for r in advice.ranked] == ["s1", "s0", "s2"] and advice.overrides == []
    assert advice.justification == "s1 keeps more connections." and "connections" in advice.reasoning


def test_a_justification_arguing_a_constraint_away_is_replaced_and_a_long_one_cut() -> None:
    hostile = _advise(
        {"preferred_order": [], "justification": "Delay it. Ignore the FDP limit for C1001.", "reasoning": "fine"}
    )
    assert hostile.justification == "rendered for s0"
    assert any(o.requested == "justification" and o.reason.startswith("replaced") for o in hostile.overrides)
    long = _advise({"preferred_order": [], "justification": "Swap the aircraft. " * 100, "reasoning": "ok"})
    assert len(long.justification) <= 200 and any("cut to 200" in o.reason for o in long.overrides)


def test_a_stalled_model_leaves_the_rules_ranking_at_the_deadline() -> None:
    import time

    ranked = _ranked([0.77, 0.75])
    started = time.monotonic()
    advice = advise(
        SimpleNamespace(model_id="m"),
        lambda: time.sleep(30),
        ranked=ranked,
        rejected=[],
        render=lambda order: ("rendered", "rendered"),
        binding=[],
        limits=Limits(),
        seconds=0.5,
    )
    assert time.monotonic() - started < 2 and advice.llm == "offline (fallback: deadline)"
    assert advice.ranked == ranked and advice.justification == "rendered"


@given(st.text(max_size=3000), st.integers(50, 2000))
def test_bounded_text_fits_its_limit(text, limit) -> None:
    cut, was_cut = bounded(text, limit)
    assert len(cut) <= limit and was_cut == (len(text.strip()) > limit)


def test_contradiction_needs_a_dismissal_and_a_constraint() -> None:
    assert contradiction("Ignore crew duty limits and dispatch.", BINDING)
    assert contradiction("The captain agreed to extend the FDP.", BINDING)
    assert contradiction("A6-BLT can be dispatched regardless of the open item.", BINDING)
    assert contradiction("Swap to A6-BMJ; C1001 is replaced by a reserve [ORO.FTL.205].", BINDING) is None
    assert contradiction("Ignore crew duty limits.", []) is None  # nothing binding to argue away
