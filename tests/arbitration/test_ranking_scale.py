"""The ranking's scale: a gap between two plans weighs in proportion to its size, whatever the other plans."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.arbitration.ranking import CRITERIA, Precedent, RankingWeights, normalise, score

pytestmark = pytest.mark.unit
NEUTRAL = Precedent(0.5, 0, "")

criteria = st.fixed_dictionaries(
    {
        # zero or a figure a plan could have (a subnormal cost would vanish in a currency conversion)
        "passenger_satisfaction": st.one_of(st.just(0.0), st.floats(0.01, 5_000)),
        "cost": st.one_of(st.just(0.0), st.floats(0.01, 500_000)),
        "network_stability": st.one_of(st.just(0.0), st.floats(0.01, 10)),
        "execution_reliability": st.floats(0, 1),
    }
)


@settings(max_examples=300, deadline=None)
@given(st.lists(criteria, min_size=1, max_size=6))
def test_every_normalised_criterion_is_between_0_and_1(raw):
    for row in normalise(raw):
        assert set(row) == set(CRITERIA)
        assert all(0.0 <= v <= 1.0 for v in row.values())


@settings(max_examples=300, deadline=None)
@given(criteria, st.floats(0.0, 0.2), st.lists(criteria, max_size=4))
def test_a_small_reliability_gap_moves_the_score_by_its_size_only(plan, gap, others):
    """Min–max stretched a 0.1 reliability gap to the criterion's whole weight; here it weighs 0.1 of it."""
    better = {**plan, "execution_reliability": min(1.0, plan["execution_reliability"] + gap)}
    worse = {**plan, "execution_reliability": better["execution_reliability"] - gap}
    weights = RankingWeights()
    a, b, *_ = normalise([better, worse, *others])
    share = weights.execution_reliability / sum(weights.as_dict().values())
    assert score(a, weights, NEUTRAL) - score(b, weights, NEUTRAL) == pytest.approx(share * gap, abs=2e-4)


@settings(max_examples=300, deadline=None)
@given(st.lists(criteria, min_size=2, max_size=6), st.floats(0.01, 100))
def test_the_order_does_not_depend_on_the_currency(raw, rate):
    weights = RankingWeights()
    converted = [{**r, "cost": r["cost"] * rate} for r in raw]
    before = [score(n, weights, NEUTRAL) for n in normalise(raw)]
    after = [score(n, weights, NEUTRAL) for n in normalise(converted)]
    assert after == pytest.approx(before, abs=2e-4)


def test_a_cancellation_does_not_outrank_a_reserve_75_minutes_late_on_a_reliability_tenth():
    """40 passengers: a reserve captain 75 min late (0.9 reliability: a call-out) against cancelling them to the
    next day; the reserve costs a little more and delays two later flights, the cancellation leaves one hole."""
    reserve = {
        "passenger_satisfaction": 40 * 75 / 60,
        "cost": 9_000,
        "network_stability": 2,
        "execution_reliability": 0.9,
    }
    cancel = {"passenger_satisfaction": 40 * 24, "cost": 8_000, "network_stability": 1, "execution_reliability": 1.0}
    r, c = (score(n, RankingWeights(), NEUTRAL) for n in normalise([reserve, cancel]))
    assert r > c
