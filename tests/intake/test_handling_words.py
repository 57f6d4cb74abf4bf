"""Passenger and ramp causes by what went wrong, above the thing it concerned: a headcount that does not match (15)
above the DCS or loadsheet; a meal order wrong or never sent (17) above the caterer; the loading team short or the
load put in the wrong place (32) above the bags or ULDs."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

lead = st.sampled_from(["EY343 18JAN AUH:", "EY12/18 LHR -", "Flight EY611 on 19 January:"])
end = st.sampled_from(["", " DLA 20.", " +15"])


@given(
    lead=lead,
    count=st.sampled_from(
        ["headcount vs DCS differs by 2", "pax count does not match the loadsheet", "head count short"]
    ),
    end=end,
)
def test_a_count_that_does_not_match_is_boarding(lead, count, end) -> None:
    text = f"{lead} {count}, cabin crew recounting.{end}"
    assert first_code(text) == 15, text


@given(
    lead=lead,
    order=st.sampled_from(
        ["the meal order sent to the caterer was wrong", "12 SPML never ordered", "catering order not transmitted"]
    ),
    end=end,
)
def test_a_meal_order_wrong_is_the_catering_order(lead, order, end) -> None:
    text = f"{lead} {order}, caterer producing the rest now.{end}"
    assert first_code(text) == 17, text


@given(
    lead=lead,
    what=st.sampled_from(
        [
            "loading team short by two agents, bags late into the hold",
            "ULDs loaded in the aft hold instead of the forward, re-stowing",
            "the ramp team is at half strength, loading slow",
        ]
    ),
    end=end,
)
def test_the_loading_team_short_or_wrong_is_loading(lead, what, end) -> None:
    text = f"{lead} {what}.{end}"
    assert first_code(text) == 32, text
