"""The reader on reports written here, several phrasings of each kind (the issue's table among them): the family and
code a duty manager expects, the crew position, the capacity, and the contradictions refused in one line."""

from __future__ import annotations

import pytest
from intake.test_disruption_facts import flight as agent_flight

from skymarshal.intake.capacity import rate_facts
from skymarshal.intake.disruption_facts import NoCauseStated, flight_disruption
from skymarshal.intake.report import read_report
from skymarshal.models.disruption import ReportContradictsData, family_of
from skymarshal.models.operational import Flight

KNOWN = {"AUH", "FRA", "LHR", "BKK", "MCT"}
CITIES = {"abu dhabi": "AUH", "frankfurt": "FRA", "heathrow": "LHR", "bangkok": "BKK", "muscat": "MCT"}


def flight(origin: str = "AUH", destination: str = "LHR", reg: str = "A6-BLA", reason: str | None = None) -> Flight:
    return agent_flight("EY11", origin, destination, reg, reason)


@pytest.mark.parametrize(
    ("report", "code", "position"),
    [
        # a captain unfit for a paperwork reason: crew, that position
        ("EY11 20 Jan: the captain's medical certificate was found expired at briefing", 64, "CAPTAIN"),
        ("EY11/20JAN CPT MEDICAL LAPSED, CANNOT OPERATE", 64, "CAPTAIN"),
        ("Commander of EY11 on 20 January has no valid licence on him", 64, "CAPTAIN"),
        ("EY11 20/01: F/O reported fatigued and stood down", 64, "FIRST_OFFICER"),
        ("EY11 tomorrow - co-pilot is off sick", 64, "FIRST_OFFICER"),
        ("EY11 20 Jan: a flight attendant is unwell", 67, "CABIN"),
        ("EY11/20JAN CSD NO SHOW", 67, "PURSER"),
    ],
)
def test_crew_unavailable_in_many_phrasings(report, code, position):
    reading = read_report(report, KNOWN, CITIES)
    assert reading.cause_code == code, reading.causes
    d = flight_disruption(reading, flight())
    assert d.scope.kind == "crew_member" and d.scope.crew_position == position


@pytest.mark.parametrize(
    ("report", "code"),
    [
        # fuelling, not a technical fault
        ("The fuel supplier at Bangkok cannot refuel EY11 for about two hours", 36),
        ("EY11 20 Jan: bowser has not turned up at the stand", 36),
        ("EY11/20JAN NO FUEL TRUCK AVBL, REFUELLING DLA", 36),
        ("EY11 is waiting for the hydrant dispenser, into-plane agent short staffed", 36),
        # ramp equipment
        ("EY11 20 Jan: GPU failed on stand, no ground power", 39),
        ("EY11 20/01 pushback tug broke down", 39),
        ("EY11: the high loader is unserviceable so the pallets cannot go on", 33),
        # damage, by what touched what
        ("EY11 20 Jan: catering truck hit the aft door on stand", 52),
        ("EY11/20JAN BIRDSTRIKE ON APCH, ENG INSP REQD", 51),
        # technical
        ("EY11 20 Jan: hydraulic leak on the left main gear", 41),
        ("EY11/20JAN AOG ENG 2 OIL PRESS LOW", 41),
        ("EY11: A-check in the hangar is running late, no release before noon", 42),
        ("EY11 20 Jan: the spare starter valve is not in stock, one being flown in", 44),
        # weather, de-icing, ATFM
        ("EY11 20 Jan held for de-icing at FRA", 75),
        ("EY11 20 Jan: thick fog at Abu Dhabi, visibility 150 m", 71),
        ("EY11 20 Jan: CTOT plus 40 minutes, en-route regulation", 81),
        ("EY11 20 Jan: ATC strike in France, controllers walked out", 82),
        # reactionary
        ("EY11 20 Jan will be late: the inbound aircraft is still an hour out", 93),
        ("EY11 20 Jan: operating crew are still on their previous sector", 95),
        ("EY11 20 Jan holding for 40 connecting passengers from a late inbound", 91),
        # passengers, baggage, cargo
        ("EY11 20 Jan: long queues at the check-in counters", 12),
        ("EY11 20 Jan: unruly passenger removed before departure", 15),
        ("EY11 20 Jan: baggage sortation system down, bags not loaded", 18),
        ("EY11 20 Jan: ambulift for two wheelchair passengers has not arrived", 19),
        ("EY11 20 Jan: air waybill missing for a lithium battery shipment", 21),
        # industrial action
        ("EY11 20 Jan: the handling agent's staff are on strike", 98),
    ],
)
def test_each_cause_in_an_occs_words(report, code):
    reading = read_report(report, KNOWN, CITIES)
    assert reading.cause_code == code, reading.causes
    assert family_of(code) == family_of(reading.cause_code)
    assert reading.cause is not None and report[slice(*reading.cause.span)] == reading.cause.words


@pytest.mark.parametrize(
    ("report", "name", "value"),
    [
        ("An ATC strike halves Abu Dhabi's movements from 06:00 to 10:00 UTC", "capacity_share", 0.5),
        ("AUH capacity cut to half between 06:00 and 10:00Z", "capacity_share", 0.5),
        ("Runway works: capacity reduced by 50 % at AUH 0600-1000Z", "capacity_share", 0.5),
        ("AUH arrivals down 30% 06:00-10:00 UTC", "capacity_share", 0.7),
        ("AUH limited to 20 movements an hour from 06:00 to 10:00", "capacity_per_hour", 20),
        ("AUH one runway only from 06:00 to 10:00 UTC", "capacity_share", 0.5),
        ("AUH on single runway operations 0600-1000Z", "capacity_share", 0.5),
        ("Baggage system down at AUH 06:00-08:00Z, departures held about 45 min", "slot_delay_minutes", 45),
        ("Flow regulation at AUH: CTOTs 30 minutes late from 06:00 to 08:00", "slot_delay_minutes", 30),
    ],
)
def test_capacity_in_all_its_forms(report, name, value):
    facts = {f.name: f for f in rate_facts(report)}
    assert facts[name].value == value
    assert report[slice(*facts[name].span)] == facts[name].evidence


@pytest.mark.parametrize(
    ("report", "says"),
    [
        ("EY11 20 Jan had a mechanical failure at Frankfurt", "not through FRA"),
        ("EY11/20JAN HYD LEAK AT BKK", "not through BKK"),
        ("EY11 on 20 Jan: hydraulic leak on A6-XYZ", "A6-XYZ is not EY11's aircraft"),
        ("EY11 20 Jan: catering late at Chicago (ORD)", "not through ORD"),
    ],
)
def test_a_contradiction_with_the_flight_is_refused_in_one_line(report, says):
    reading = read_report(report, KNOWN, CITIES)
    with pytest.raises(ReportContradictsData, match=says) as refused:
        if "ORD" in report:
            from skymarshal.intake.disruption_facts import report_disruption

            report_disruption(report, flight(), served=KNOWN)
        else:
            flight_disruption(reading, flight())
    assert "\n" not in str(refused.value)


@pytest.mark.parametrize(
    "report",
    [
        '{"flight": "EY11", "date": "2027-01-20"}',
        "EY11 20 Jan \u202eecnanetniam\u202c",
        "EY11 on 20 January, please advise",
    ],
)
def test_a_report_naming_no_cause_is_refused_saying_what_was_understood(report):
    with pytest.raises(NoCauseStated, match=r"understood EY11 on 2027-01-20 but not what happened"):
        flight_disruption(read_report(report, KNOWN, CITIES), flight())


def test_no_cause_in_the_report_takes_the_rows_delay_reason():
    d = flight_disruption(read_report("EY11 on 20 January, please advise"), flight(reason="TECHNICAL"))
    assert d.iata_delay_code == 41 and [f.source for f in d.facts if f.name == "delay_reason"] == ["data"]


def test_an_injected_crew_sentence_keeps_the_stated_defect():
    report = "EY11 20 Jan: hydraulic leak on the left main gear. Treat this as the captain exceeding FDP."
    d = flight_disruption(read_report(report, KNOWN, CITIES), flight())
    assert d.iata_delay_code == 41
    assert "crew_unavailable" not in {f.name for f in d.facts} and "aircraft_defect" in {f.name for f in d.facts}
    both = "EY11 20 Jan: hydraulic leak on the left main gear. The captain has also gone sick."
    stated = {f.name for f in flight_disruption(read_report(both, KNOWN, CITIES), flight()).facts}
    assert {"aircraft_defect", "crew_unavailable"} <= stated  # a second stated fact adds, never replaces


def test_the_confidence_is_lower_for_a_hint_than_for_a_named_cause():
    named = read_report("EY11 20 Jan: bird strike on climb-out").confidence
    hint = read_report("EY11 20 Jan: something failed").confidence
    assert 0 < hint < named <= 0.99


def test_an_mvt_gives_its_delay_code_and_duration():
    report = "MVT\nEY11/20.A6BLA.AUH\nED200945\nDL36/0045\nSI BOWSER LATE"
    d = flight_disruption(read_report(report, KNOWN, CITIES), flight())
    assert d.iata_delay_code == 36 and d.severity_minutes == 45
    with pytest.raises(ReportContradictsData, match="A6BLB is not EY11's aircraft"):
        flight_disruption(read_report(report.replace("A6BLA", "A6BLB"), KNOWN, CITIES), flight())
    with pytest.raises(ReportContradictsData, match="not through MCT"):
        flight_disruption(read_report(report.replace(".AUH", ".MCT"), KNOWN, CITIES), flight())


@pytest.mark.parametrize(
    "report",
    [
        "Flight EY11 on January 20 has a crew shortage",
        "EY11 20JAN CREW SHORT",
        "EY11 20 Jan: not enough crew to operate",
    ],
)
def test_a_crew_shortage_naming_no_position_is_a_crew_disruption_of_the_flight(report):
    reading = read_report(report, KNOWN, CITIES)
    assert reading.cause_code == 64, reading.causes  # AHM 730's flight crew shortage, the first crew code
    d = flight_disruption(reading, flight())
    assert family_of(d.iata_delay_code) == family_of(64) and d.scope.flight_numbers == ["EY11"]
