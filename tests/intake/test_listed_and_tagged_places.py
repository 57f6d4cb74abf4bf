"""Places in a report that are not where its flight goes: a bag's destination ("tagged MCT instead of BAH") is no
contradiction of the flight's route; a list of places after one direction ("to HKG, PVG or NRT") is that end's
alternatives, each of them."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.flight_sets import flight_sets
from skymarshal.intake.report import read_report

SERVED = {"AUH", "BAH", "MCT", "KWI", "DOH", "HKG", "NRT"}


def _codes(words: str) -> set[str]:
    return {words} & SERVED


@given(
    tag=st.sampled_from(["tagged {x} instead of {y}", "labelled {x} rather than {y}", "tagged to {y}"]),
    x=st.sampled_from(["BAH", "KWI"]),
    y=st.sampled_from(["MCT", "DOH"]),
)
def test_a_bags_destination_is_not_a_place_of_the_flight(tag, x, y) -> None:
    text = f"EY600 3 Feb AUH-{x}: four bags {tag.format(x=x, y=y)}, pulled from the hold. 20 min."
    places = [a.value for a in read_report(text, known_airports=SERVED).places]
    assert y not in places, text


@given(
    ends=st.permutations(["BAH", "KWI", "DOH", "HKG"]),
    joiner=st.sampled_from([", ", " or ", " and "]),
)
def test_places_listed_after_one_direction_are_all_that_end(ends, joiner) -> None:
    listed = ", ".join(ends[:-1]) + joiner + ends[-1]
    [described] = flight_sets(f"every departure to {listed} on 3 Feb goes late: fuel truck shortage", _codes)
    assert {code for p in described.places for code in p.codes} == set(ends)
    assert {p.end for p in described.places} == {"destination"}


@given(place=st.sampled_from(["BAH", "KWI", "DOH"]), noun=st.sampled_from(["departures", "arrivals", "flights"]))
def test_a_place_before_the_noun_is_the_end_the_noun_names(place, noun) -> None:
    """ "Our DOH departures" leave DOH, "DOH arrivals" land there, "DOH flights" touch it either way."""
    [described] = flight_sets(f"all our {place} {noun} on 3 Feb are held: fuel supplier strike", _codes)
    assert [(p.end, set(p.codes)) for p in described.places] == [
        ({"departures": "origin", "arrivals": "destination"}.get(noun, "either"), {place})
    ]
