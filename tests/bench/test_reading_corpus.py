"""The reading bench's corpus: reproducible by seed, its truth consistent with the airline's rows, every family,
style, scope and contradiction present; the judge's verdicts; the reader adapter's reading of a disruption."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest

from bench.reading.airline_view import AirlineView, view_of
from bench.reading.causes import CAUSES
from bench.reading.corpus import CONTRADICTIONS, build_corpus, reportable
from bench.reading.described import in_band
from bench.reading.judge import judge
from bench.reading.reader import flights_at_airport_in_memory, read_of
from bench.reading.subjects import described_set
from bench.reading.truth import FAMILIES, SCOPE_LABELS, STYLES, Read, Report, Truth
from skymarshal.data.generator import GeneratorConfig, generate

COUNT = 800
pytestmark = pytest.mark.integration  # the whole airline is generated (about 5 s): not the unit tier's fast loop


@pytest.fixture(scope="module")
def view() -> AirlineView:
    return view_of(generate(GeneratorConfig(load_factor=0.05)))


@pytest.fixture(scope="module")
def corpus(view) -> list[Report]:
    return build_corpus(view, seed=11, count=COUNT)


def test_the_same_seed_gives_the_same_reports_and_another_seed_others(view, corpus):
    again = build_corpus(view, seed=11, count=COUNT)
    assert [r.model_dump() for r in again] == [r.model_dump() for r in corpus]
    other = build_corpus(view, seed=12, count=COUNT)
    assert sum(a.text != b.text for a, b in zip(other, corpus)) > COUNT * 0.9


def test_every_family_style_scope_contradiction_and_decoration_is_present(corpus):
    assert len(corpus) == COUNT
    assert {r.truth.family for r in corpus} == set(FAMILIES)
    assert {r.style for r in corpus} == set(STYLES)
    assert {r.truth.scope for r in corpus} == set(SCOPE_LABELS)
    assert {r.truth.refuse for r in corpus} - {None} == set(CONTRADICTIONS)
    decorations = Counter(d for r in corpus for d in r.decorations)
    assert {"instruction", "remark", "filler", "greeting", "relative_day"} <= set(decorations)
    assert 0.05 < sum(r.truth.refuse is not None for r in corpus) / COUNT < 0.15
    for family in FAMILIES:  # each family in at least two styles
        assert len({r.style for r in corpus if r.truth.family == family}) >= 2, family


def test_the_truth_holds_in_the_airline_rows(view, corpus):
    flights = {f.flight_id: f for f in view.flights}
    for report in corpus:
        t = report.truth
        named = [flights[fid] for fid in t.flights]
        assert named or t.refuse == "description_matches_none", report
        if t.scope in ("flight", "flights", "crew_member"):
            for f in named:  # every flight the truth holds is written in the report
                assert re.search(rf"\b{f.flight_number}\b", report.text), report
            assert len({f.flight_date for f in named}) == 1
        if t.scope in ("flight", "flights", "crew_member") and t.airport:
            on_route = all(t.airport in (f.origin, f.destination) for f in named)
            assert on_route == (t.refuse != "airport_not_on_route"), report
            if t.refuse is None and t.code in (71, 72, 83):  # weather or a restriction where its code says
                end = "destination" if t.code in (72, 83) else "origin"
                assert all(getattr(f, end) == t.airport for f in named), report
        if t.scope in ("flight", "flights") and t.registration:
            assert t.refuse == "tail_not_the_flights" and t.registration != named[0].aircraft_registration
        if t.scope == "crew_member":
            rostered = t.crew_rank in view.ranks_on[named[0].flight_id]
            assert rostered == (t.refuse != "position_not_rostered"), report
        if t.scope == "tail":
            assert t.registration and t.registration in report.text
            day = named[0].flight_date
            leaves = {f.origin for f in view.tail_flights(t.registration, day)}
            assert named[0].aircraft_registration == t.registration
            assert (t.airport is None or t.airport in leaves) == (t.refuse != "tail_not_at_airport"), report
        if t.scope in ("airport", "airspace"):
            assert t.window_start and t.window_end and t.airport
            for f in named:
                times = [f.scheduled_departure] if f.origin == t.airport else []
                times += [f.scheduled_arrival] if f.destination == t.airport else []
                assert any(t.window_start < at < t.window_end for at in times), report
        if t.scope == "described":
            assert (len(named) >= 2) == (t.refuse is None) and len({f.flight_date for f in named}) <= 1, report
            assert not any(re.search(rf"\b{f.flight_number}\b", report.text) for f in named), report
        if t.operating_day is not None:
            assert "relative_day" in report.decorations


def test_a_described_set_is_every_flight_of_its_day_that_fits_the_description(view):
    """The composer's sets hold every flight of the day surely fitting (its own bands), and none in between."""
    rng = random.Random(5)
    for cause in [c for c in CAUSES if reportable(c, "described")] * 3:
        subject = described_set(view, rng, cause)
        if subject is None:
            continue
        d = subject.description
        assert d is not None and subject.flights
        pool = view.tail_flights(d.registration, subject.day) if d.registration else view.by_day[subject.day]
        for f in pool:
            at = (
                d.registration is not None
                or d.place
                in {"destination": (f.destination,), "origin": (f.origin,), "either": (f.origin, f.destination)}[
                    d.end or "either"
                ]
            )
            verdict = in_band(view, f, d.part) if d.part else True
            assert verdict is not None or not at
            assert (f in subject.flights) == (at and verdict is True), (d, f.flight_number)


def test_relative_days_resolve_against_the_stated_operating_day(corpus):
    relative = [r for r in corpus if r.truth.operating_day is not None and r.truth.scope in ("flight", "crew_member")]
    assert relative
    for report in relative:
        day = datetime.fromisoformat(report.truth.flights[0][-8:]).date()
        offset = (day - report.truth.operating_day).days
        assert offset in (0, 1)
        assert ("tomorrow" in report.text.lower()) == (offset == 1), report


def _truth(**fields) -> Truth:
    base = {"family": "technical", "code": 41, "scope": "flight", "scope_kind": "flight", "flights": ["EY1-20270120"]}
    return Truth.model_validate(base | fields)


def _report(truth: Truth) -> Report:
    return Report(report_id="R1", text="x", style="terse", reported_at=datetime(2027, 1, 17, tzinfo=UTC), truth=truth)


@pytest.mark.parametrize(
    ("truth", "read", "outcome"),
    [
        (
            _truth(),
            Read(refused=False, family="technical", scope_kind="flight", flights=["EY1-20270120"]),
            "understood",
        ),
        (
            _truth(),
            Read(refused=False, family="weather", scope_kind="flight", flights=["EY1-20270120"]),
            "wrong_family",
        ),
        (_truth(), Read(refused=False, family="technical", scope_kind="tail", flights=["EY1-20270120"]), "wrong_scope"),
        (
            _truth(),
            Read(refused=False, family="technical", scope_kind="flight", flights=["EY2-20270120"]),
            "wrong_flights",
        ),
        (_truth(), Read(refused=True, message="no"), "refused_wrongly"),
        (_truth(), Read(refused=True, crashed=True, message="KeyError"), "crashed"),
        (_truth(refuse="airport_not_on_route"), Read(refused=True), "refused"),
        (_truth(refuse="airport_not_on_route"), Read(refused=False, family="technical"), "contradiction_accepted"),
        (
            _truth(scope="tail", scope_kind="tail", registration="A6-EIA", flights_exact=False),
            Read(
                refused=False,
                family="technical",
                scope_kind="tail",
                registration="A6-EIA",
                flights=["EY1-20270120", "EY2-20270120"],
            ),
            "understood",
        ),
    ],
)
def test_the_judge(truth, read, outcome):
    assert judge(_report(truth), read).outcome == outcome


def test_a_disruption_is_read_with_its_scope_and_window():
    read = read_of(
        {
            "family": "weather",
            "iata_delay_code": 71,
            "scope": {"kind": "airport", "airport": "AUH", "flights": ["EY1-20270120"]},
            "window": {"start": "2027-01-20T14:00:00Z", "end": "2027-01-20T16:00:00Z"},
        }
    )
    assert (read.family, read.code, read.scope_kind, read.airport) == ("weather", 71, "airport", "AUH")
    assert read.window_end == datetime(2027, 1, 20, 16, tzinfo=UTC)


def test_the_airport_query_in_memory_keeps_the_index_bounds(view):
    flight = [f for f in view.flights if f.origin == "AUH"][5]
    at, hour = flight.scheduled_departure, timedelta(hours=1)
    query = flights_at_airport_in_memory(view.flights)
    assert flight in query(None, "AUH", at - hour, at + timedelta(minutes=1))
    assert flight in query(None, "AUH", at, at + hour)  # [start, end): the start is in
    assert flight not in query(None, "AUH", at - hour, at)  # the end is out
    assert flight not in query(None, flight.destination, at - hour, at + timedelta(minutes=1))  # it arrives later
