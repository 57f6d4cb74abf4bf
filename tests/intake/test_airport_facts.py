"""A report about an airport over a window (no flight named) as an airport-scope disruption, checked against the
data: the served airport, the day, the window, the flights found through the airport GSIs; one line otherwise."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from skymarshal.data import queries as q
from skymarshal.intake.airport_facts import InvalidReport, network_report, report_day

FOG = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"
NOW = datetime(2026, 11, 24, 18, 0, tzinfo=UTC)


def test_an_airport_closure_is_an_airport_scope_disruption_over_its_window(handle):
    disruption, overlay = network_report(FOG, handle, NOW)
    assert disruption.scope.kind == "airport" and disruption.scope.airport == "AUH"
    assert disruption.window is not None
    assert (disruption.window.start, disruption.window.end) == (
        datetime(2027, 1, 22, 14, tzinfo=UTC),
        datetime(2027, 1, 22, 17, tzinfo=UTC),
    )
    assert disruption.family == "weather"  # fog: AHM 730 71, weather at the (departure) station
    touching = q.flights_at_airport(handle, "AUH", disruption.window.start, disruption.window.end)
    assert touching and disruption.scope.flights == [f.flight_id for f in touching]
    for flight in touching:  # each departs or arrives at AUH inside the window
        assert (
            flight.origin == "AUH" and disruption.window.start <= flight.scheduled_departure < disruption.window.end
        ) or (
            flight.destination == "AUH" and disruption.window.start <= flight.scheduled_arrival < disruption.window.end
        )
    (notam,) = overlay.additions
    assert notam.item["kind"] == "AIRPORT_CLOSED" and notam.item["iata"] == "AUH"
    seen = q.notams(handle.with_overlay(overlay), "AUH", disruption.window.start, disruption.window.end)
    assert any(n.kind == "AIRPORT_CLOSED" for n in seen)
    assert not any(
        n.notam_id == "WHATIF" for n in q.notams(handle, "AUH", disruption.window.start, disruption.window.end)
    )


@pytest.mark.parametrize(
    ("report", "says"),
    [
        ("Gotham airport is closed from 14:00 to 17:00 UTC on January 22nd", "no airport the airline serves"),
        ("Abu Dhabi airport is closed by fog on January 22nd", "needs the window"),
        ("Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC", "needs the day"),
        ("Abu Dhabi airport is closed from 14:00 to 17:00 UTC on February 30th", "needs the day"),
    ],
)
def test_a_report_that_cannot_be_placed_says_what_was_understood(handle, report, says):
    with pytest.raises(InvalidReport, match=says) as caught:
        network_report(report, handle, NOW)
    assert "\n" not in str(caught.value)


def test_a_day_without_a_year_is_its_nearest_occurrence():
    assert report_day("on January 22nd", NOW.date()).isoformat() == "2027-01-22"
    assert report_day("on 20 November", NOW.date()).isoformat() == "2026-11-20"


def test_an_airport_the_airline_does_not_serve_is_named():
    from skymarshal.intake.airport_facts import unserved_airport

    report = "Kabul (KBL) airport closed from 10:00 to 13:00 UTC on January 21st for a security incident"
    assert unserved_airport(report, {"AUH", "LHR"}) == "KBL (Kabul)"
    assert unserved_airport("AUH closed by fog", {"AUH"}) is None


@pytest.mark.parametrize(
    ("start", "hours", "overnight"),
    [("23:30", 2.5, True), ("18:00", 12, True), ("09:00", 22, False), ("13:00", 13, False), ("11:59", 1, False)],
)
def test_a_window_ending_before_it_starts_is_overnight_only_from_noon_and_within_12_hours(start, hours, overnight):
    from datetime import time, timedelta

    from skymarshal.intake.airport_facts import overnight as is_overnight

    assert is_overnight(time.fromisoformat(start), timedelta(hours=hours)) is overnight


def test_a_reversed_window_is_refused_not_reinterpreted(handle):
    with pytest.raises(InvalidReport, match="ends before it starts"):
        network_report("Abu Dhabi airport is closed by fog from 09:00 to 07:00 UTC on January 22nd", handle, NOW)


@pytest.mark.parametrize(
    ("words", "closed"),
    [
        ("Heathrow has suspended all movements from 06:00 to 08:00", True),
        ("all flights suspended at AUH after a security alert", True),
        ("operations have been suspended at Zurich", True),
        ("Abu Dhabi airport shut by fog", True),
        ("no movements at DOH between 10:00 and 11:00", True),
        ("AUH limited to 20 movements per hour", False),
        ("boarding suspended on one gate", False),
    ],
)
def test_a_closure_in_an_occs_words(words, closed):
    from skymarshal.intake.airport_facts import CLOSURE

    assert (CLOSURE.search(words) is not None) is closed


@pytest.mark.parametrize(
    "report",
    [
        "Abu Dhabi: ground handling staff strike from 14:00 to 17:00 UTC on January 22nd, minimum services only",
        "AUH DCS outage for all carriers 22JAN 1400Z-1700Z, manual check-in",
    ],
)
def test_a_cause_over_a_window_with_no_effect_stated_holds_by_policy(handle, report):
    """The report names a cause and a window but no closure, capacity or slot: the flights in the window are held
    by the policy's planned delay for the code, cited as policy (never a closure, never nothing)."""
    from skymarshal.rules.what_if_policy import POLICY, slot_minutes

    disruption, overlay = network_report(report, handle, NOW)
    assert disruption.remarks != "closed" and overlay.additions == []
    (hold,) = [f for f in disruption.facts if f.name == "slot_delay_minutes"]
    assert hold.source == "policy" and POLICY in (hold.evidence or "")
    assert hold.value == slot_minutes(disruption.iata_delay_code)


@pytest.mark.parametrize(
    "report",
    [
        "Abu Dhabi airport is closed by fog from 18:00 local to 21:00 local on January 22nd",
        "AUH closed by fog 1800LT-2100LT 22JAN",
        "Fog at Abu Dhabi: airport closed between 1800 and 2100 local time on 22 January",
    ],
)
def test_a_window_in_local_time_is_the_airports_clock(handle, report):
    """AUH is UTC+4: 18:00-21:00 local is 14:00-17:00Z (a window with no zone stays UTC, as FOG above)."""
    disruption, _ = network_report(report, handle, NOW)
    assert disruption.window is not None
    assert (disruption.window.start, disruption.window.end) == (
        datetime(2027, 1, 22, 14, tzinfo=UTC),
        datetime(2027, 1, 22, 17, tzinfo=UTC),
    )
