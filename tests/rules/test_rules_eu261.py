"""EU261 / UK261: scope, Art. 7 amounts, Sturgeon, extraordinary circumstances, notice, re-routing, care."""

from __future__ import annotations

import pytest

from skymarshal.rules.eu261 import (
    Eu261Config,
    Reroute,
    as_finding,
    assess_compensation,
    care_entitlement,
    compensation_category,
)
from skymarshal.rules.eu261_scope import ScopeConfig, applicable_regime


def test_auh_lhr_on_etihad_is_not_covered():
    a = assess_compensation("AUH", "LHR", "EY", "delay", arrival_delay_minutes=300, cause="technical")
    assert a.regime is None and a.amount == 0 and not a.owed
    assert "Art. 3(1)" in a.reason


@pytest.mark.parametrize("delay", [180, 200, 241, 600])
def test_lhr_auh_on_etihad_is_uk261_520(delay):
    a = assess_compensation("LHR", "AUH", "EY", "delay", arrival_delay_minutes=delay, cause="technical")
    assert (a.regime, a.amount, a.currency, a.category) == ("UK261", 520, "GBP", "c")
    assert a.distance_km > 3500
    assert "Art. 3(1)(a)" in a.reason and "Art. 7(1)(c)" in a.reason


def test_fra_auh_on_etihad_is_eu261_600():
    a = assess_compensation("FRA", "AUH", "EY", "cancellation", cause="technical")
    assert (a.regime, a.amount, a.currency) == ("EU261", 600, "EUR")


def test_technical_owed_weather_not():
    tech = assess_compensation("FRA", "AUH", "EY", "delay", arrival_delay_minutes=200, cause="technical")
    assert tech.owed and tech.extraordinary is False and "C-549/07" in tech.reason
    weather = assess_compensation("FRA", "AUH", "EY", "delay", arrival_delay_minutes=200, cause="weather")
    assert not weather.owed and weather.amount == 0 and weather.extraordinary
    assert not weather.care.meals_and_refreshments  # category (c): care from 4 h
    later = assess_compensation("FRA", "AUH", "EY", "delay", arrival_delay_minutes=250, cause="weather")
    assert later.care.meals_and_refreshments and not later.owed  # care is owed whatever the cause


@pytest.mark.parametrize(
    ("cause", "owed"),
    [
        ("atc", False),
        ("security", False),
        ("political", False),
        ("bird_strike", False),
        ("crew", True),
        ("crew_strike", True),
        ("external_strike", False),
        (None, True),
        ("mystery", True),
    ],
)
def test_causes(cause, owed):
    assert assess_compensation("FRA", "AUH", "EY", "cancellation", cause=cause).owed is owed


def test_arrival_into_eu_needs_an_eu_carrier():
    assert applicable_regime("AUH", "FRA", "EY")[0] is None
    assert applicable_regime("AUH", "FRA", "LH")[0] == "EU261"
    assert applicable_regime("JFK", "LHR", "BA")[0] == "UK261"
    assert applicable_regime("JFK", "LHR", "AF")[0] == "UK261"  # UK261 covers EU carriers into the UK
    assert applicable_regime("JFK", "LHR", "AA")[0] is None
    assert applicable_regime("LHR", "FRA", "LH")[0] == "UK261"  # departure regime wins


def test_switzerland_choice():
    assert applicable_regime("ZRH", "AUH", "EY")[0] == "EU261"
    assert applicable_regime("AUH", "ZRH", "LX")[0] == "EU261"
    assert applicable_regime("ZRH", "AUH", "EY", ScopeConfig(include_switzerland=False))[0] is None


def test_bands_and_intra_eu():
    assert compensation_category(1500, intra=False) == "a"
    assert compensation_category(1500.1, intra=False) == "b"
    assert compensation_category(3500, intra=False) == "b"
    assert compensation_category(3500.1, intra=False) == "c"
    assert compensation_category(5000, intra=True) == "b"
    short = assess_compensation("FRA", "CDG", "LH", "cancellation")
    assert short.amount == 250
    intra_long = assess_compensation("HEL", "LPA", "AY", "cancellation")  # Helsinki–Gran Canaria, > 3500 km
    assert intra_long.distance_km > 3500 and intra_long.amount == 400
    assert assess_compensation("LHR", "ATH", "BA", "cancellation").amount == 350  # UK261 1500–3500 km


def test_sturgeon_threshold():
    assert assess_compensation("FRA", "AUH", "EY", "delay", arrival_delay_minutes=179).amount == 0
    assert assess_compensation("FRA", "AUH", "EY", "delay", arrival_delay_minutes=180).amount == 600


def test_long_haul_three_to_four_hours_halving_is_configurable():
    config = Eu261Config(halve_long_haul_delay_3_to_4h=True)
    assert assess_compensation("LHR", "AUH", "EY", "delay", arrival_delay_minutes=200, config=config).amount == 260
    assert assess_compensation("LHR", "AUH", "EY", "delay", arrival_delay_minutes=240, config=config).amount == 260
    assert assess_compensation("LHR", "AUH", "EY", "delay", arrival_delay_minutes=241, config=config).amount == 520


def test_reroute_halving_art_7_2():
    a = assess_compensation("FRA", "AUH", "EY", "cancellation", reroute=Reroute(arrival_delay_minutes=240))
    assert a.amount == 300 and a.reduced
    assert (
        assess_compensation("FRA", "AUH", "EY", "cancellation", reroute=Reroute(arrival_delay_minutes=241)).amount
        == 600
    )
    assert (
        assess_compensation("FRA", "CDG", "LH", "denied_boarding", reroute=Reroute(arrival_delay_minutes=120)).amount
        == 125
    )


@pytest.mark.parametrize(
    ("notice", "earlier", "late", "owed"),
    [
        (14, 0, 600, False),
        (13.9, 120, 239, False),
        (13.9, 121, 0, True),
        (7, 0, 240, True),
        (6.9, 60, 119, False),
        (6.9, 60, 120, True),
        (6.9, 61, 0, True),
        (None, 0, 0, True),
    ],
)
def test_cancellation_notice_art_5(notice, earlier, late, owed):
    reroute = Reroute(departure_earlier_minutes=earlier, arrival_delay_minutes=late)
    a = assess_compensation("FRA", "AUH", "EY", "cancellation", notice_days=notice, reroute=reroute, cause="technical")
    assert a.owed is owed


def test_care_art_9():
    assert not care_entitlement("delay", "a", 119).meals_and_refreshments
    assert care_entitlement("delay", "a", 120).meals_and_refreshments
    assert not care_entitlement("delay", "b", 179).meals_and_refreshments
    assert care_entitlement("delay", "c", 240).communications
    assert not care_entitlement("delay", "c", 239).meals_and_refreshments
    assert care_entitlement("delay", "c", 300).refund_option
    assert care_entitlement("delay", "c", 300, overnight=True).hotel
    assert not care_entitlement("delay", "c", 200, overnight=True).hotel
    cancelled = care_entitlement("cancellation", "a", 0, overnight=True)
    assert cancelled.meals_and_refreshments and cancelled.hotel and cancelled.hotel_transport


def test_as_finding():
    f = as_finding(assess_compensation("FRA", "AUH", "EY", "cancellation"), "EY1#2027-01-20")
    assert f.status == "legal" and not f.binding and f.actual == 600 and f.unit == "EUR"
