"""A diversion stated in prose is the `diverted_to` fact a DIV message gives: read only when it has happened, never
a contradiction with the flight's route, refused when it names the flight's own destination."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_disruption_facts import flight

from skymarshal.intake.disruption_facts import ReportContradictsData, flight_disruption, report_disruption
from skymarshal.intake.diversion import stated_diversion
from skymarshal.intake.report import read_report
from skymarshal.models.airports import airport, haversine_km, point_along, route_distance_km

KNOWN = {"AUH", "FRA", "LHR", "MCT", "BAH"}
# Alternates by code (each in the airport reference, none of the test flight's ends)
ALTERNATES = ("MCT", "BAH", "MAN", "SNN", "DOH", "KWI", "CGN", "MUC", "VIE", "IST")

DONE = (
    ("EY124 has diverted to Muscat and is on the ground there with a hydraulic leak", "MCT"),
    ("EY124 20 Jan diverted to MAN, cabin crew member taken ill", "MAN"),
    ("EY124/20JAN DIV MCT PAX MEDICAL", "MCT"),
    ("The aircraft operating EY124 was diverted into Bahrain after a bird strike", "BAH"),
    ("EY124 on January 20th: medical emergency on board, diverted to Shannon", "SNN"),
)
NOT_DONE = (
    "EY124 may divert to Muscat if the fog does not lift",
    "EY124 could be diverted to MAN with the crosswind",
    "EY124 will be diverted to Muscat",
    "EY124 has not diverted to MCT, it is holding",
    "If EY124 is diverted to MCT the crew will be out of hours",
    "EY124 is planning to be diverted to Bahrain",
    "EY124 diverted to London",  # a city of several airports: which one goes unsaid
)


@pytest.mark.parametrize(("report", "alternate"), DONE)
def test_a_diversion_that_happened_is_read_with_its_words(report, alternate):
    found = stated_diversion(report)
    assert found is not None and found.airport == alternate
    assert report[slice(*found.reading.span)] == found.reading.words and "div" in found.reading.words.lower()


@pytest.mark.parametrize("report", NOT_DONE)
def test_a_diversion_still_to_come_or_ambiguous_is_no_fact(report):
    assert stated_diversion(report) is None


@pytest.mark.parametrize(("report", "alternate"), DONE)
def test_the_flight_is_on_the_ground_at_the_alternate_not_off_its_route(report, alternate):
    d = report_disruption(report, flight(), served=KNOWN)
    (diverted,) = [f for f in d.facts if f.name == "diverted_to"]
    assert (diverted.value, diverted.source, d.scope.airport) == (alternate, "stated", alternate)


def test_a_diversion_to_the_flights_destination_is_refused_in_one_line():
    with pytest.raises(ReportContradictsData, match="names its destination, not a diversion") as refused:
        flight_disruption(read_report("EY124 diverted to AUH with a hydraulic leak", KNOWN), flight())
    assert "\n" not in str(refused.value)


def test_an_instruction_states_no_diversion():
    report = "EY124 20 Jan: hydraulic leak at FRA. Treat this as diverted to MCT."
    d = flight_disruption(read_report(report, KNOWN), flight())
    assert "diverted_to" not in {f.name for f in d.facts}


@given(
    alternate=st.sampled_from(ALTERNATES),
    lead=st.sampled_from(["has ", "was ", "", "has been "]),
    verb=st.sampled_from(["diverted to", "diverted into", "DIV"]),
    tail=st.sampled_from(["", " and is on the ground there", ", pax on board", " and will need fuel."]),
    modal=st.sampled_from([None, "may be ", "could be ", "will be ", "might have "]),
)
def test_a_done_diversion_adds_its_fact_and_a_possible_one_adds_none(alternate, lead, verb, tail, modal):
    """Any alternate, any phrasing: stated as done it is the fact (facts only add: the defect stays); spoken of as
    possible it is none, and the alternate it names is a movement's end, no contradiction."""
    assert airport(alternate).iata == alternate
    if modal and verb == "DIV":  # the telex word is a done diversion: "may be DIV MCT" is not how a desk writes
        verb = "diverted to"
    base = "EY124 20 Jan hydraulic leak. "
    said = f"EY124 {modal or lead}{verb} {alternate}{tail}"
    d = report_disruption(base + said, flight(), served=KNOWN | {alternate})
    diverted = [f.value for f in d.facts if f.name == "diverted_to"]
    assert diverted == ([] if modal else [alternate])
    assert d.iata_delay_code == 41 and "aircraft_defect" in {f.name for f in d.facts}


# A name of airports an ocean apart: the flight's route tells which one it diverted to (none far from both).
NAMESAKES = (
    ("EY86 diverted to Naples after a bird strike and is on the ground there", ("AUH", "FCO"), "NAP"),
    ("EY86 diverted to Naples after a bird strike and is on the ground there", ("JFK", "MIA"), "APF"),
    ("EY89 has diverted into Venice with a sick passenger", ("AUH", "MXP"), "VCE"),
    ("EY124 diverted to Rome, medical emergency", ("AUH", "FRA"), None),  # FCO and CIA: both within reach
    ("EY124 diverted to Naples", ("SYD", "MEL"), None),  # neither near the route
)


@pytest.mark.parametrize(("report", "route", "alternate"), NAMESAKES)
def test_a_name_of_several_airports_is_the_one_near_the_route(report, route, alternate):
    found = stated_diversion(report, route)
    assert (found.airport if found else None) == alternate


@given(st.sampled_from(ALTERNATES), st.sampled_from(ALTERNATES), st.floats(0, 1))
def test_a_route_passes_through_its_ends_and_every_point_along_it(origin, destination, fraction):
    assert (
        route_distance_km(origin, origin, destination) < 1 and route_distance_km(destination, origin, destination) < 1
    )
    a, b = airport(origin), airport(destination)
    length = haversine_km(a.lat, a.lon, b.lat, b.lon)
    lat, lon = point_along(a, b, fraction, length)
    assert haversine_km(a.lat, a.lon, lat, lon) == pytest.approx(fraction * length, abs=1)
