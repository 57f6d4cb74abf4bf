"""Curfew windows in local time, across midnight and DST."""

from __future__ import annotations

import pytest
from rules_helpers import utc

from skymarshal.models.operational import AirportProfile, CurfewWindow
from skymarshal.rules.curfew import DEFAULT_CURFEWS, check_movement, check_movement_at


@pytest.mark.parametrize(
    ("at", "status"),
    [
        (utc(2027, 1, 15, 21, 59), "at_risk"),  # 22:59 CET: 1 min before the ban
        (utc(2027, 1, 15, 22, 0), "illegal"),  # 23:00 CET
        (utc(2027, 1, 16, 3, 59), "illegal"),  # 04:59 CET, after midnight
        (utc(2027, 1, 16, 4, 0), "legal"),  # 05:00 CET
        (utc(2027, 7, 15, 20, 59), "at_risk"),  # 22:59 CEST
        (utc(2027, 7, 15, 21, 0), "illegal"),  # 23:00 CEST
        (utc(2027, 7, 16, 2, 59), "illegal"),  # 04:59 CEST
        (utc(2027, 7, 16, 3, 0), "legal"),  # 05:00 CEST
    ],
)
def test_frankfurt_winter_and_summer(at, status):
    assert check_movement("FRA", at, "departure").status == status


def test_inside_margin_is_the_wait():
    f = check_movement("FRA", utc(2027, 1, 15, 22, 30), "arrival")
    assert f.binding and f.margin_minutes == -(6 * 60 - 30) and f.details["minutes_until_window_end"] == 330
    assert f.clause == DEFAULT_CURFEWS["FRA"][0].source


def test_outside_margin_is_time_to_the_window():
    f = check_movement("FRA", utc(2027, 1, 15, 12, 0), "departure")
    assert f.status == "legal" and f.margin_minutes == 10 * 60


@pytest.mark.parametrize(
    ("at", "status"),
    [
        (utc(2027, 1, 15, 23, 29), "at_risk"),  # GMT 23:29: legal, a minute before the quota period
        (utc(2027, 1, 15, 23, 30), "at_risk"),  # inside the night quota period: allowed, uses quota
        (utc(2027, 7, 15, 22, 30), "at_risk"),  # BST 23:30
        (utc(2027, 7, 16, 5, 0), "legal"),  # BST 06:00
    ],
)
def test_heathrow_night_quota_is_never_illegal(at, status):
    f = check_movement("LHR", at, "arrival")
    assert f.status == status and not f.binding


def test_heathrow_quota_period_rule():
    assert check_movement("LHR", utc(2027, 1, 16, 2, 0), "arrival").rule == "airport.night_quota"


def test_sydney_daylight_saving():
    assert check_movement("SYD", utc(2027, 1, 15, 12, 0), "arrival").status == "illegal"  # 23:00 AEDT
    assert check_movement("SYD", utc(2027, 1, 15, 11, 59), "arrival").status == "at_risk"
    assert check_movement("SYD", utc(2027, 7, 15, 13, 0), "arrival").status == "illegal"  # 23:00 AEST
    assert check_movement("SYD", utc(2027, 7, 15, 20, 0), "arrival").status == "legal"  # 06:00 AEST


def test_cologne_midnight_start():
    assert check_movement("CGN", utc(2027, 1, 15, 22, 59), "departure").status == "at_risk"  # 23:59
    assert check_movement("CGN", utc(2027, 1, 15, 23, 0), "departure").status == "illegal"  # 00:00
    assert check_movement("CGN", utc(2027, 1, 16, 4, 0), "departure").status == "legal"  # 05:00


def test_no_curfew_and_applies_to():
    assert check_movement("AUH", utc(2027, 1, 15, 23), "arrival").clause == "no curfew on record"
    arrivals_only = [CurfewWindow(start_local="22:00", end_local="06:00", applies_to="arrivals", source="test")]
    assert check_movement("AUH", utc(2027, 1, 15, 20), "arrival", windows=arrivals_only).status == "illegal"
    assert check_movement("AUH", utc(2027, 1, 15, 20), "departure", windows=arrivals_only).status == "legal"


def test_profile_windows():
    profile = AirportProfile(
        iata="ADL",
        icao="YPAD",
        name="Adelaide",
        city="Adelaide",
        country="AU",
        tz="Australia/Adelaide",
        lat=-34.9,
        lon=138.5,
        elevation_ft=20,
    )
    assert check_movement_at(profile, utc(2027, 7, 15, 13, 30), "arrival").status == "illegal"  # 23:00 ACST
