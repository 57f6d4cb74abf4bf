"""Industrial action is the cause (AHM 730 97 the airline's own staff, 98 anyone else's) above the work it holds up:
the cargo late, the loadsheet late, the counters shut, the fire cover reduced."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st


@given(
    who=st.sampled_from(
        [("our own load controllers", 97), ("the company's cargo staff", 97), ("the airport fire service", 98)]
    ),
    action=st.sampled_from(["on a go-slow", "staging a sit-in", "in a sick-out", "on strike"]),
    held=st.sampled_from(["loadsheet will be late", "cargo build-up late", "counters opened late", "departures held"]),
)
def test_industrial_action_is_the_cause_above_what_it_holds_up(who, action, held) -> None:
    text = f"EY77 3 Feb: {who[0]} {action}, {held}. DLA 25"
    assert first_code(text) == who[1], text
