"""One crew member named is the report's scope; the cabin crew as a group is the flight's (intake/crew_member.py).

Phrasings written here: a title before a name ("CA", "CD"), the senior cabin titles, the informal "skipper", a
member awaited from another flight or on strike, and the forms that make the cabin crew many — a count, a plural,
what the crew's words qualify ("cabin crew bus"), the plain words with nobody named.
"""

from __future__ import annotations

import pytest
from intake.test_disruption_facts import flight as agent_flight

from skymarshal.intake.disruption_facts import flight_disruption
from skymarshal.intake.normalise import normalise
from skymarshal.intake.report import read_report

KNOWN = {"AUH", "LHR"}


def scope_of(report: str) -> tuple[str, str | None, int]:
    reading = read_report(report, KNOWN, {})
    d = flight_disruption(reading, agent_flight("EY11", "AUH", "LHR", "A6-BLA", None))
    return d.scope.kind, d.scope.crew_position, d.iata_delay_code


@pytest.mark.parametrize(
    ("report", "position"),
    [
        ("EY11 20 Jan: CA Pedro Alvarez called in sick this morning", "CABIN"),
        ("EY11/20JAN CD MARTA KOWALSKA UNWELL, STOOD DOWN", "PURSER"),
        ("EY11 20 Jan - our cabin director reported sick at the hotel", "PURSER"),
        ("EY11 20 Jan: in-flight manager Sven Berg is ill, no replacement yet", "PURSER"),
        ("EY11 20 Jan: the skipper has gone sick, crewing looking for a reserve", "CAPTAIN"),
        ("EY11 20 Jan: cabin crew Ines Moreau did not report for duty", "CABIN"),
        ("EY11 20 Jan: Tom Fischer (cabin crew) is off sick", "CABIN"),
        ("EY11/20JAN CC SICK AT SIGN-ON", "CABIN"),
    ],
)
def test_one_member_named_is_the_scope(report, position):
    kind, named, _ = scope_of(report)
    assert (kind, named) == ("crew_member", position)


@pytest.mark.parametrize(
    "report",
    [
        "EY11 20 Jan: two flight attendants are unwell",
        "EY11 20 Jan: 3 cabin crew short, standbys called",
        "EY11/20JAN CC SHORT BY 2, REDUCED COMPLEMENT",
        "EY11 20 Jan: the cabin crew miscounted passengers, headcount redone",
        "EY11 20 Jan: cabin crew bus stuck in traffic, crew late at the aircraft",
        "EY11 20 Jan: cabin crew members not at briefing on time",
    ],
)
def test_the_cabin_crew_as_a_group_is_the_flight(report):
    """The position is kept (a crew cause still takes cabin members off the flight: tests/arbitration/
    test_named_crew.py), the scope is the flight."""
    kind, named, code = scope_of(report)
    assert (kind, named) == ("flight", "CABIN"), code


@pytest.mark.parametrize(
    ("report", "code"),
    [
        ("EY11 20 Jan: First officer Ana Ruiz is positioning in on EY12, which is late; EY11 waits for her", 95),
        ("EY11 20 Jan: the captain has joined the pilots' union strike and will not operate", 97),
    ],
)
def test_a_member_awaited_or_on_strike_is_the_scope(report, code):
    kind, named, read = scope_of(report)
    assert (kind, read) == ("crew_member", code), named


def test_a_member_asking_for_a_search_is_not_the_scope():
    """AHM 730 69: the captain asks for the security check; nobody is taken off the flight for it."""
    kind, _, code = scope_of("EY11 20 Jan: the captain requested a full security search of the cabin")
    assert (kind, code) == ("flight", 69)


@pytest.mark.parametrize(
    ("text", "expanded"),
    [
        ("CA Noura Dlamini late", "cabin attendant Noura Dlamini late"),
        ("CD WEI CHEN SICK", "cabin director WEI CHEN SICK"),
        ("San Jose, CA 95110", "San Jose, CA 95110"),  # a state, not a title
        ("ca Noura Dlamini", "ca Noura Dlamini"),  # a title is written in capitals
        ("EY11 CD ROM", "EY11 CD ROM"),  # one word after it is no name
    ],
)
def test_ca_and_cd_are_titles_only_before_a_name(text, expanded):
    assert normalise(text).text == expanded


def test_a_2nd_officer_is_a_second_officer():
    reading = read_report("EY11/20JAN 2ND OFFICER UNFIT (MEDICAL), SBY CALLED", KNOWN, {})
    assert reading.cause_code == 64 and reading.crew_position is not None
    assert reading.crew_position.value == "SECOND_OFFICER"
