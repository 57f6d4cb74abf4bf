"""The flight operations and crew family (AHM 730 61-69) read by what the crew did, not by who carried it out: the
commander's extra fuel is an operational requirement (62) above the bowser; a crew member's request beyond the
operation's needs (65, 68 cabin) above the caterers or cleaners; the cabin crew's own error (68) above the
passengers it concerns; departure procedures or a sign-on late (63); a crew member who cannot operate (64, 67); a
flight plan re-issued (61). A crew member named only as the one asking is no crew-member scope."""

from __future__ import annotations

from cause_helpers import first_code
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.report import read_report

lead = st.sampled_from(["EY343 18JAN AUH:", "EY12/18 LHR -", "Flight EY611 on 19 January:", "EY7 19 jan"])
end = st.sampled_from(["", " DLA 20.", " Departure delayed 30 min.", " ETD TBA.", " +25"])
DECK = ["the captain", "The commander", "CPT", "the skipper", "the F/O", "Capt Lee"]
CABIN = ["the purser", "The SCCM", "the cabin crew", "cabin director Khan", "the CSD"]


@given(
    lead=lead,
    who=st.sampled_from(DECK),
    asks=st.sampled_from(["wants", "has asked for", "requested", "decided to carry", "ordered"]),
    fuel=st.sampled_from(["3 t more fuel", "an additional 1500 kg", "extra fuel for holding", "2.5 tonnes extra"]),
    then=st.sampled_from(["; the fuel truck is back on stand", ", refuelling again", ", bowser called back", ""]),
    end=end,
)
def test_the_commanders_extra_fuel_is_an_operational_requirement(lead, who, asks, fuel, then, end) -> None:
    text = f"{lead} {who} {asks} {fuel}{then}.{end}"
    assert first_code(text) == 62, text
    assert read_report(text, {"AUH", "LHR"}, {}).scope_kind(True) == "flight", text


@given(
    lead=lead,
    who=st.sampled_from(DECK),
    what=st.sampled_from(
        ["a new set of crew meals", "fresh bedding in the crew bunk", "his flight bag from the hotel"]
    ),
    by=st.sampled_from(["catering is on it", "cleaners called", "the hotel driver is bringing it", ""]),
    end=end,
)
def test_a_request_for_the_crews_own_things_is_their_special_request(lead, who, what, by, end) -> None:
    text = f"{lead} {who} asked for {what}, {by}.{end}"
    assert first_code(text) == 65, text


@given(
    lead=lead,
    who=st.sampled_from([("the first officer", 65), ("the captain", 65), ("the purser", 68), ("cabin crew", 68)]),
    said=st.sampled_from(["not an operational requirement", "not ops req", "special request", "not required for ops"]),
    end=end,
)
def test_a_crew_request_beyond_the_operations_needs_is_its_own_code(lead, who, said, end) -> None:
    text = f"{lead} {who[0]} wants the galley re-stocked with another brand of water ({said}).{end}"
    assert first_code(text) == who[1], text


@given(
    lead=lead,
    who=st.sampled_from(CABIN),
    error=st.sampled_from(["miscounted the passengers", "gave a wrong door report", "forgot to arm door 3R"]),
    end=end,
)
def test_the_cabin_crews_own_error_is_68(lead, who, error, end) -> None:
    text = f"{lead} {who} {error}, doors re-opened and passengers counted again.{end}"
    assert first_code(text) == 68, text


@given(
    lead=lead,
    late=st.sampled_from(
        [
            "the captain signed on 25 minutes late",
            "late departure procedures",
            "dep procedures started late",
            "flight crew only at the aircraft late, departure procedures delayed",
        ]
    ),
    end=end,
)
def test_departure_procedures_or_a_sign_on_late_is_63(lead, late, end) -> None:
    text = f"{lead} {late}.{end}"
    assert first_code(text) == 63, text


@given(
    lead=lead,
    who=st.sampled_from([("the first officer", 64), ("the skipper", 64), ("the SCCM", 67), ("a flight attendant", 67)]),
    why=st.sampled_from(["arrived w/o passport", "has no passport with him and cannot operate", "cannot operate"]),
    end=end,
)
def test_a_crew_member_who_cannot_operate_is_unavailable(lead, who, why, end) -> None:
    text = f"{lead} {who[0]} {why}, standby called.{end}"
    assert first_code(text) == who[1], text


@given(
    lead=lead,
    plan=st.sampled_from(["the OFP", "the flight plan", "a new flight plan"]),
    what=st.sampled_from(["was revised after a reroute", "re-issued at 2150Z", "had to be re-released"]),
    end=end,
)
def test_a_flight_plan_reissued_is_61(lead, plan, what, end) -> None:
    text = f"{lead} {plan} {what}, crew briefed again.{end}"
    assert first_code(text) == 61, text
