"""A flight's report as a Disruption: stated facts keep their words, data facts name the row, contradictions
are refused."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skymarshal.intake.disruption_facts import NoCauseStated, ReportContradictsData, flight_disruption
from skymarshal.intake.report import read_report
from skymarshal.models.operational import Flight

KNOWN = {"AUH", "FRA", "LHR"}


def flight(
    number: str = "EY124",
    origin: str = "FRA",
    destination: str = "AUH",
    reg: str = "A6-BLA",
    delay_reason: str | None = None,
) -> Flight:
    dep = datetime(2027, 1, 20, 12, 0, tzinfo=UTC)
    return Flight(
        flight_id=f"{number}-20270120",
        flight_number=number,
        carrier="EY",
        origin=origin,
        destination=destination,
        flight_date=dep.date(),
        scheduled_departure=dep,
        scheduled_arrival=dep.replace(hour=18),
        aircraft_registration=reg,
        aircraft_type="B787-9",
        delay_reason=delay_reason,
        block_minutes=360,
        distance_km=4500,
        capacity={"J": 28, "Y": 262},
    )


def test_a_bird_strike_at_the_outstation_is_stated_damage_on_the_flight():
    text = "EY124 on January 20th had a bird strike at FRA and needs an engine inspection before it can fly back"
    d = flight_disruption(read_report(text, KNOWN), flight())
    assert (d.iata_delay_code, d.family, d.scope.kind) == (51, "damage_automation", "flight")
    assert d.scope.flights == ["EY124-20270120"] and d.scope.airport == "FRA"
    stated = {f.name: f for f in d.facts if f.source == "stated"}
    assert stated["aircraft_damage"].evidence == "bird strike"
    assert text[slice(*stated["aircraft_damage"].span)] == "bird strike"
    assert [f.source for f in d.facts if f.name == "flight"] == ["data"]


def test_a_sick_captain_is_a_crew_member_scope():
    d = flight_disruption(read_report("The captain of EY20 called in sick"), flight("EY20", "AUH", "LHR"))
    assert d.iata_delay_code == 64 and d.scope.kind == "crew_member" and d.scope.crew_position == "CAPTAIN"


def test_weather_at_the_flights_destination_is_code_72():
    d = flight_disruption(read_report("Fog at AUH", KNOWN), flight())
    assert (d.iata_delay_code, d.family) == (72, "weather")


def test_no_stated_cause_takes_the_rows_delay_reason_as_a_data_fact():
    d = flight_disruption(read_report("EY124 is late"), flight(delay_reason="ATC_FLOW"))
    assert d.iata_delay_code == 81 and [f.source for f in d.facts if f.name == "delay_reason"] == ["data"]
    assert flight_disruption(read_report("EY124 is late"), flight()).iata_delay_code == 99  # a delay, no reason
    with pytest.raises(NoCauseStated, match="understood EY124 on 2027-01-20 but not what happened"):
        flight_disruption(read_report("EY124, please advise"), flight())  # neither the report nor the row says


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("EY124 with A6-XYZ has a hydraulic leak", "A6-XYZ is not EY124's aircraft"),
        ("EY124 diverted by fog at LHR", "not through LHR"),
    ],
)
def test_a_report_that_contradicts_the_flight_is_refused(text, message):
    with pytest.raises(ReportContradictsData, match=message):
        flight_disruption(read_report(text, KNOWN), flight())


def test_a_stated_window_and_duration_are_kept():
    d = flight_disruption(read_report("A 90 minute ATC slot delay for EY124 from 12:00 to 13:30Z", KNOWN), flight())
    assert d.severity_minutes == 90 and d.window and d.window.start.hour == 12 and d.window.end.minute == 30


def test_weather_named_by_the_origin_s_code_is_71_though_the_destination_is_named_by_its_city():
    """'Sandstorm over AUH … EY131 to Dulles': AUH, the origin, is where the weather is; Dulles is the route."""
    from skymarshal.intake.disruption_facts import report_disruption

    d = report_disruption(
        "Sandstorm over AUH, vis down to 400m. EY131 to Dulles can't get away", flight("EY131", "AUH", "IAD")
    )
    assert (d.iata_delay_code, d.scope.airport) == (71, "AUH")
