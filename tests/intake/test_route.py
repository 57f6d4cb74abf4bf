"""A route written beside a flight must be the one it flies: otherwise one line naming both, whatever the form
the route and the date are written in; a pair of airports elsewhere in the report is no route."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from row_builders import flight as row_flight
from row_builders import utc

from skymarshal.intake.route import route_problem
from skymarshal.models.operational import Flight

AIRPORTS = ["AUH", "LHR", "GYD", "DXB", "SIN", "BOM", "MAN", "JFK"]
pairs = st.lists(st.sampled_from(AIRPORTS), min_size=2, max_size=2, unique=True)
FORMS = [
    "{f} {a}-{b} 18JAN: catering late",
    "{f}/18 {a}/{b} DLA 20",
    "{f} 18JAN {a}–{b} bird strike",
    "{f} on 18 January from {a} to {b}: crew sick",
    "{low} 18jan {a}-{b} pax no-show",
    "{f} (18 Jan) {a}>{b} AOG",
]


def flight(origin: str, destination: str, number: int) -> Flight:
    return row_flight(f"EY{number}", origin, destination, dep=utc(2027, 1, 18, 8))


@given(flown=pairs, written=pairs, form=st.sampled_from(FORMS), number=st.integers(1, 999))
def test_a_route_beside_the_flight_is_its_route(flown, written, form, number) -> None:
    f = flight(flown[0], flown[1], number)
    text = form.format(f=f.flight_number, low=f"ey {number}", a=written[0], b=written[1])
    problem = route_problem(text, f, set(AIRPORTS))
    if tuple(written) == tuple(flown):
        assert problem is None, text
    else:
        assert problem is not None and "\n" not in problem, text
        assert f"{flown[0]}-{flown[1]}" in problem and f"{written[0]}-{written[1]}" in problem


@given(flown=pairs, written=pairs, number=st.integers(1, 999))
def test_airports_elsewhere_are_no_route(flown, written, number) -> None:
    f = flight(flown[0], flown[1], number)
    for text in (
        f"EY{number} 18JAN: fog, diversions {written[0]}-{written[1]} expected",
        f"EY{number} 18JAN {written[0]}-{written[1]}-{written[0]} rotation delayed",
        f"EY{number}0 {written[0]}-{written[1]} 18JAN",
    ):
        assert route_problem(text, f, set(AIRPORTS)) is None, text


# Airports the airline does not serve, from the world reference: a route to one is still a route it does not fly
UNSERVED = ["DXB", "SHJ", "CDG", "DOH", "KBL"]


SERVED = sorted(set(AIRPORTS) - set(UNSERVED))


@given(
    flown=st.lists(st.sampled_from(SERVED), min_size=2, max_size=2, unique=True),
    unserved=st.sampled_from(UNSERVED),
    first=st.booleans(),
    form=st.sampled_from(FORMS),
    number=st.integers(1, 999),
)
def test_a_route_to_an_airport_the_airline_does_not_serve_is_refused(flown, unserved, first, form, number) -> None:
    f = flight(flown[0], flown[1], number)
    a, b = (unserved, f.origin) if first else (f.origin, unserved)
    text = form.format(f=f.flight_number, low=f"ey {number}", a=a, b=b)
    problem = route_problem(text, f, set(SERVED))
    assert problem is not None and "\n" not in problem, text
    assert f"{f.origin}-{f.destination}" in problem and f"{a}-{b}" in problem


@given(word=st.sampled_from(["AOG", "ETD", "ETA", "STD", "APU", "MEL", "DLA", "ATC"]), number=st.integers(1, 999))
def test_an_ops_abbreviation_beside_a_served_airport_is_no_route(word: str, number: int) -> None:
    f = flight("AUH", "LHR", number)
    for text in (f"EY{number} 18JAN AUH/{word} 1400", f"EY{number} 18JAN {word}-LHR", f"EY{number} / 19 JAN / LHR"):
        assert route_problem(text, f, {"AUH", "LHR"}) is None, text
