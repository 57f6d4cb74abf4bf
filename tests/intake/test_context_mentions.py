"""Mentions that are context, not the report's subject (found by the blind corpora, fixed in general): another
designator's number beside the airline's own flight (a dangerous-goods UN number, an MVT delay code), the late
flight this one waits for, the place such a flight comes from, and "STN" for station."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.intake.extraction_core import parse
from skymarshal.intake.report import airport_names, read_report

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    "report",
    [
        "EY77 on 3 Feb: pallet with UN1845 dry ice over the declared quantity, re-weighed at the warehouse",
        "MVT EY77/03 delayed DL93 after the inbound, plus a tyre change",
        "EY77 03FEB connection with LH630 protected, holding 10 min",
    ],
)
def test_another_designators_number_beside_the_airlines_own_flight_is_context(report):
    assert [f.flight_number for f in parse(report)[0]] == ["EY77"]


def test_another_designators_number_alone_is_still_read_and_refused_later():
    assert [f.flight_number for f in parse("UN1845 leaking in the hold, 3 Feb")[0]] == ["UN1845"]


@pytest.mark.parametrize(
    "report",
    [
        "EY77 3 Feb waiting for 40 transfer passengers off the late EY212, about 20 min",
        "EY77 on 3 Feb held for bags from the delayed Manila arrival (EY425)",
        "The cabin crew of EY77 (3 Feb) are positioning in on EY18, which is running an hour late",
        "EY77 3 Feb: pax connecting from the delayed-running EY212 still at transfer security",
    ],
)
def test_the_late_flight_this_one_waits_for_is_context(report):
    assert [f.flight_number for f in parse(report)[0]] == ["EY77"]


def test_two_flights_both_the_subject_stay_two():
    assert [f.flight_number for f in parse("EY77 and EY78 on 3 Feb held by fog at AUH")[0]] == ["EY77", "EY78"]


def test_the_place_a_late_arrival_comes_from_is_not_where_the_delay_is():
    known = {"AUH", "MNL", "LHR"}
    reading = read_report(
        "EY11 3 Feb holding for connecting bags off the late Manila arrival", known, airport_names(known)
    )
    assert "MNL" in {a.value for a in reading.airports} and "MNL" not in {a.value for a in reading.places}
    at = read_report("EY11 3 Feb: ground power unit failed at Manila, 30 min", known, airport_names(known))
    assert "MNL" in {a.value for a in at.places}


def test_stn_is_the_station_unless_it_stands_as_a_place():
    known = {"AUH", "STN", "BOM"}
    station = read_report("BOM STN: EY205/19 DG parcel leaking, offloaded. DLA 40 MIN", known, airport_names(known))
    assert "STN" not in {a.value for a in station.airports}
    stansted = read_report("EY9 3 Feb: fog at STN, holding", known, airport_names(known))
    assert "STN" in {a.value for a in stansted.places}


@pytest.mark.parametrize(
    "report",
    [
        "EY77 3 Feb going late: the aircraft arriving on EY76 touched down 50 min behind",
        "EY77 on 3 Feb, tail got back late from Bahrain on EY76, new ETD 1410Z",
        "EY77 3 Feb a/c late in from BAH (EY76), exp dep 1415Z",
    ],
)
def test_the_flight_the_aircraft_came_in_on_is_context(report):
    assert [f.flight_number for f in parse(report)[0]] == ["EY77"]


@pytest.mark.parametrize(
    "report",
    [
        "EY77 3 Feb: the aircraft touched down late from Bahrain, 40 min",
        "EY77 3 Feb plane got in late off the previous night stop, +30",
        "EY77 on 3 Feb - a/c came back late from its first sector, DLA 25",
    ],
)
def test_the_aircraft_said_to_come_in_late_is_the_rotation(report):
    from skymarshal.intake.cause import read_cause
    from skymarshal.intake.normalise import normalise

    assert read_cause(normalise(report)).found[0].code == 93


FEEDER = st.sampled_from(["EY212", "EY18", "EY640"])
SUBJECT = st.sampled_from(["EY77", "EY3"])


@given(
    subject=SUBJECT,
    feeder=FEEDER,
    named=st.sampled_from(
        [
            "waiting for crew off {f}",
            "holding 30 transfer pax ex {f}",
            "held for mail ex {f}",
            "late, following the delayed {f}",
            "same aircraft as the late {f}, rotation delay",
            "passengers rebooked from the cancelled {f}",
            "reactionary delay from {f}",
            "late after the late arrival of {f}",
            "combined with {f} on low loads",
            "late: the inbound ({f}) left its origin 50 min behind",
            "crew operating in on the late {f}",
            "aircraft (A6-XYZ on {f}) blocked in 40 min late",
        ]
    ),
)
def test_the_feeder_flight_named_by_its_role_is_context(subject, feeder, named):
    """The flight the report's flight waits on, takes its crew, load or aircraft from, or is combined with, named
    by the word of origin and its state: context, the report's own flight the subject, in either order."""
    clause = named.format(f=feeder)
    for report in (f"{subject} 3 Feb {clause}", f"3 Feb, {clause[0].upper()}{clause[1:]}; {subject} affected"):
        assert [f.flight_number for f in parse(report)[0]] == [subject], report


def test_the_feeders_end_in_brackets_is_not_a_place_but_the_reports_own_flights_is():
    known = {"AUH", "SIN", "FRA", "BKK"}
    names = airport_names(known)
    feeder = read_report("Bags from the delayed EY473 (SIN) still coming for EY123 on 18 Jan", known, names)
    assert "SIN" in {a.value for a in feeder.airports} and "SIN" not in {a.value for a in feeder.places}
    own = read_report("EY123 (BKK) on 18 Jan has a hydraulic leak", known, names)
    assert "BKK" in {a.value for a in own.places}


@given(
    cause=st.sampled_from(["because", "due to the late", "owing to", "caused by the delayed"]),
    feeder_day=st.sampled_from(["on the 2nd", "/02FEB", "on 2 Feb"]),
)
def test_the_flight_a_delay_comes_from_is_context_and_so_is_its_day(cause, feeder_day) -> None:
    """ "EY77 and EY78 on 3 Feb late because EY12 on the 2nd …": EY12 and its day are the cause's, not the report's."""
    flights, dates, _ = parse(f"EY77 and EY78 on 3 Feb go 30 min late {cause} EY12 {feeder_day} came in 6 hours behind")
    assert [f.flight_number for f in flights] == ["EY77", "EY78"]
    assert [d.day for d in dates] == [3]


def test_the_feeders_day_stays_when_it_is_the_only_day_given() -> None:
    flights, dates, _ = parse("EY4 late, arrived behind on the inbound EY3 18JAN")
    assert [f.flight_number for f in flights] == ["EY4"] and [d.day for d in dates] == [18]
