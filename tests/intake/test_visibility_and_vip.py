"""Two causes read above their consequences: low-visibility procedures or a runway visual range are the weather (71),
above the ATC holds that follow; a VIP's movement closing or restricting the airport is an airport restriction (89),
not a VIP on the flight (16)."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

lead = st.sampled_from(["EY343 18JAN AUH:", "EY12/18 -", "Flight EY611 on 19 January:"])


@given(
    lead=lead,
    vis=st.sampled_from(["LVP in force", "RVR 175 m", "low visibility procedures in operation"]),
    held=st.sampled_from([", departures held by ATC", ", ATC spacing departures", ""]),
)
def test_visibility_procedures_are_the_weather(lead, vis, held) -> None:
    text = f"{lead} {vis}{held}. DLA 30"
    assert first_code(text) == 71, text


@given(
    lead=lead,
    who=st.sampled_from(["a VIP movement", "the VVIP movement", "a state visit", "a head of state's arrival"]),
    what=st.sampled_from(["runway closed 0800-0830", "airport restriction in place", "departures restricted"]),
)
def test_a_vips_movement_at_the_airport_is_an_airport_restriction(lead, who, what) -> None:
    text = f"{lead} {who}, {what}. ETD +40"
    assert first_code(text) == 89, text


@given(
    lead=lead,
    vis=st.sampled_from(["RVR 300 m", "LVP in force", "low visibility procedures"]),
    where=st.sampled_from(["at the destination", "on arrival, may divert", "for landing"]),
)
def test_visibility_at_the_destination_is_72(lead, vis, where) -> None:
    text = f"{lead} fog {where}, {vis}. ETD +60"
    assert first_code(text) == 72, text
