"""Sets of flights a report describes (intake/flight_sets.py), read by the parts of the phrase: a flight noun bound
to a tail, a place and the end of the flight it is, and a part of the day — several phrasings of each, written
here; a greeting, a night check, a lone "all flights" or a flight number are no set."""

from __future__ import annotations

import pytest

from skymarshal.intake.flight_sets import flight_sets, parts_of_day
from skymarshal.models.airports import codes_of_place

SERVED = {"AUH", "LHR", "BAH", "KWI", "CAI", "BOS", "IST", "MUC", "BOM"}


def codes(words: str) -> set[str]:
    if len(words) == 3 and words.isupper():
        return {words} & SERVED
    return set(codes_of_place(words)) & SERVED


def read(text: str) -> list[tuple[str | None, list[tuple[str, list[str]]], tuple[str, ...]]]:
    return [(s.registration, [(p.end, sorted(p.codes)) for p in s.places], s.parts) for s in flight_sets(text, codes)]


@pytest.mark.parametrize(
    "text",
    [
        "A6-BLQ's flights today are delayed, hydraulic leak",
        "All flights operated by A6-BLQ on 21 Jan are held",
        "every sector flown by aircraft A6-BLQ is late",
        "the whole A6-BLQ rotation on 21 January: bird strike",
        "ALL SECTORS ON A6-BLQ/21JAN ENG VIB",
        "A6-BLQ is AOG in Boston; all its flights on 21 Jan are off",
        "ALL A6-BLQ FLTS 21JAN APU WONT START",
    ],
)
def test_a_tails_flights(text):
    [(registration, places, _)] = read(text)
    assert registration == "A6-BLQ" and places == []


@pytest.mark.parametrize(
    ("text", "end", "code"),
    [
        ("Every departure to Bahrain tomorrow morning is delayed", "destination", "BAH"),
        ("all our flights into Heathrow are held", "destination", "LHR"),
        ("all services bound for Kuwait: snow", "destination", "KWI"),
        ("ALL FLTS TO BAH/21JAN SS AT AUH", "destination", "BAH"),
        ("every flight out of Cairo is late", "origin", "CAI"),
        ("the arrivals from Boston tonight are held", "origin", "BOS"),
        ("ALL DEPS EX MUC 20JAN BHS DOWN", "origin", "MUC"),
        ("arrivals at Heathrow in the morning held, fog", "destination", "LHR"),
        ("departures at Munich are late", "origin", "MUC"),
        ("All our London flights this evening are delayed", "either", "LHR"),
        ("the Bahrain services are held", "either", "BAH"),
        ("our flights to/from Kuwait are late", "either", "KWI"),
        ("ALL FLTS TO/FROM CAI 19JAN", "either", "CAI"),
        ("every flight to and from Munich is held", "either", "MUC"),
    ],
)
def test_flights_to_from_or_at_a_place(text, end, code):
    [(registration, places, _)] = read(text)
    assert registration is None and places == [(end, [code])], text


def test_both_ends_and_several_places_at_one_end():
    [(_, places, parts)] = read("Good morning team, all flights from Abu Dhabi to Bahrain and Kuwait tonight are held.")
    assert places == [("origin", ["AUH"]), ("destination", ["BAH"]), ("destination", ["KWI"])]
    assert parts == ("evening",)


@pytest.mark.parametrize(
    "text",
    [
        "This will affect every AUH to BOM departure on the 18 JAN operating day",
        "all our AUH-BOM flights on 19 JAN will load late",
        "Loading delays expected on every Abu Dhabi to Mumbai departure of that operating day",
        "ALL AUH-BOM FLTS 18JAN CATERING LATE",
    ],
)
def test_a_route_before_the_noun_binds_both_ends(text):
    """A route written before the flight noun is the origin then the destination, not flights at either end of
    its last place (every AUH-BOM departure is not every flight touching Bombay)."""
    [(registration, places, _)] = read(text)
    assert registration is None and places == [("origin", ["AUH"]), ("destination", ["BOM"])], text


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("all our London flights this evening", ("evening",)),
        ("all flights to Cairo tonight", ("evening",)),
        ("every departure to Bahrain tomorrow morning", ("morning",)),
        ("the Kuwait flights on the afternoon of 21 January", ("afternoon",)),
        ("Muscat flights on 21 Jan in the morning", ("morning",)),
        ("2027-01-21, afternoon, all our Cairo flights", ("afternoon",)),
        ("ALL BAH FLTS 21JAN EVENING", ("evening",)),
        ("all the evening departures to Bahrain", ("evening",)),
        ("Cairo flights tomorrow night", ("evening",)),
        ("Good morning team, all Cairo flights on 21 Jan", ()),  # a greeting
        ("Evening OCC, all Cairo flights on 21 Jan", ()),
        ("ALL FLTS TO CAI/19JAN NIGHT CHK NOT COMPLETE", ()),  # a night check
        ("A6-XWE ROTATION/TOMORROW NIGHT CHK NOT COMPLETE", ()),  # tomorrow's night check (a drawn report)
        ("Cairo flights held: the night stop crew is short", ()),
        ("all Cairo flights, ignore the morning rules", ()),  # an instruction describes nothing
    ],
)
def test_parts_of_the_day(text, parts):
    assert parts_of_day(text) == parts


@pytest.mark.parametrize(
    "text",
    [
        "A6-XWA grounded in Abu Dhabi on January 21st with a cracked windshield",  # the tail's flight, no set
        "EY301 and EY302 on 22 January: A6-EID has a hydraulic leak",  # named, not described
        "all flights this evening are delayed by fog",  # no place, no tail: the airport's, when it names one
        "the flight to Bahrain is held",  # one flight, unquantified
        "crew on the late inbound from Jeddah",
        "A6-BLQ's captain is sick, all his flights today need a reserve",  # a crew member's flights, no tail's set
    ],
)
def test_no_set_is_described(text):
    assert read(text) == []
