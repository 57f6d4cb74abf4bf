"""ORO.CC.100 (issue 46 item 4): the certified minimum cabin crew by seats, and whether the crew left may operate."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.arbitration.crew.cabin_minimum import certified_minimum, operate_with
from skymarshal.models.fleet import AIRCRAFT_TYPES

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(("seats", "minimum"), [(19, 0), (20, 1), (50, 1), (51, 2), (100, 2), (101, 3), (289, 6)])
def test_one_per_fifty_seats_or_fraction(seats, minimum):
    assert certified_minimum([seats]) == minimum


@given(st.lists(st.integers(0, 600), min_size=1, max_size=2))
def test_the_minimum_covers_every_seat_deck_by_deck(decks):
    minimum = certified_minimum(decks)
    if sum(decks) <= 19:
        assert minimum == 0
    else:
        assert minimum * 50 >= sum(decks) and minimum == sum(math.ceil(d / 50) for d in decks)


@given(st.sampled_from(sorted(AIRCRAFT_TYPES)), st.integers(0, 20), st.integers(0, 3))
def test_operable_only_at_the_minimum_with_a_senior(type_code, left, seniors):
    verdict = operate_with(type_code, left, seniors)
    minimum = certified_minimum([AIRCRAFT_TYPES[type_code].seats])
    assert verdict.operable == (left >= minimum and (left <= 1 or seniors >= 1))
    expected = "BELOW_MINIMUM" if left < minimum else "NO_SENIOR" if left > 1 and seniors < 1 else "MEETS_MINIMUM"
    assert (verdict.code, verdict.left, verdict.minimum) == (expected, left, minimum)


def test_the_fleets_complement_is_at_or_above_the_minimum():
    """The operator's complement per type is a service standard at or above the legal minimum: one short of it can
    still be legal, which is what makes the option worth checking."""
    for t in AIRCRAFT_TYPES.values():
        assert t.cabin_crew >= certified_minimum([t.seats]), t.code


def test_an_unknown_type_is_never_operable():
    assert operate_with("ZZZZ", 12, 2).code == "UNKNOWN_TYPE"
