"""Weather on the route or at the alternate (AHM 730 73) in the words dispatch writes it: storm cells across the
track, a cyclone on the planned route, the alternate gone below its minima — above the re-plan and extra fuel that
follow from it."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

lead = st.sampled_from(["EY343 18JAN AUH-MAN:", "EY12/18 -", "Flight EY611 on 19 January:"])
then = st.sampled_from(["", ", re-plan with extra fuel", ", dispatch re-routing, additional fuel", ", new OFP issued"])


@given(
    lead=lead,
    wx=st.sampled_from(["a line of CBs", "convective cells", "a tropical cyclone", "thunderstorms"]),
    where=st.sampled_from(["across the planned track", "along the route over Iran", "on the route, re-routed south"]),
    then=then,
)
def test_weather_on_the_route_is_73(lead, wx, where, then) -> None:
    text = f"{lead} {wx} {where}{then}. DLA 25"
    assert first_code(text) == 73, text


@given(
    lead=lead,
    alt=st.sampled_from(["the planned alternate", "destination alternate LGW", "both alternates"]),
    below=st.sampled_from(["went below minima overnight", "forecast below its landing minima", "below minimums"]),
    then=then,
)
def test_the_alternate_below_its_minima_is_73(lead, alt, below, then) -> None:
    text = f"{lead} {alt} {below}{then}. DLA 20"
    assert first_code(text) == 73, text
