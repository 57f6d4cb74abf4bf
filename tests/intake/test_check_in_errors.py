"""What the check-in counter got wrong is AHM 730 13 (passengers checked in for the wrong flight, boarding cards
issued on it, bags tagged to the wrong place), whatever system put it right; passengers checked through from
another station are 92, and the station they checked in at is their journey's, not a place of the flight's route.
Phrasings written here."""

from __future__ import annotations

import pytest
from intake.test_disruption_facts import flight as agent_flight

from skymarshal.intake.disruption_facts import flight_disruption
from skymarshal.intake.report import read_report
from skymarshal.models.disruption import ReportContradictsData

KNOWN = {"AUH", "LHR", "DEL"}


@pytest.mark.parametrize(
    "report",
    [
        "EY11 20 Jan: a family of four was checked in onto the wrong flight, bags being offloaded",
        "EY11/20JAN 2 PAX BOARDING PASSES ISSUED FOR THE WRONG FLIGHT, CORRECTED IN DCS. DLA 15",
        "EY11 20 Jan: the counter agent tagged three bags to DEL in error, pulling them from the hold",
        "EY11 20 Jan - check-in staff printed boarding cards by mistake for yesterday's flight, 10 min",
    ],
)
def test_a_counter_s_mistake_is_the_check_in_error(report):
    reading = read_report(report, KNOWN, {})
    assert reading.cause_code == 13, reading.causes


def test_passengers_checked_through_elsewhere_are_92_and_their_station_no_contradiction():
    report = "EY11 20 Jan: 5 pax through-checked at Delhi had their bags tagged to the wrong final destination"
    reading = read_report(report, KNOWN, {"delhi": "DEL"})
    assert reading.cause_code == 92, reading.causes
    disruption = flight_disruption(reading, agent_flight("EY11", "AUH", "LHR", "A6-BLA", None))
    assert disruption.iata_delay_code == 92  # DEL is off AUH-LHR and not refused: it is where they checked in


def test_a_place_the_flight_is_at_still_must_be_on_its_route():
    reading = read_report("EY11 20 Jan: check-in error at DEL, wrong flight on two boarding cards", KNOWN, {})
    with pytest.raises(ReportContradictsData, match="not through DEL"):
        flight_disruption(reading, agent_flight("EY11", "AUH", "LHR", "A6-BLA", None))
