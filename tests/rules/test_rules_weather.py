"""Wind components, runway choice, crosswind limits, minima."""

from __future__ import annotations

import math

import pytest
from rules_helpers import utc

from skymarshal.models.operational import AirportProfile, Runway, WeatherObservation
from skymarshal.rules.weather import assess_weather, best_runway_end, wind_components

RUNWAYS = [
    Runway(designator="13/31", heading_deg=130, length_m=4100),
    Runway(designator="09/27", heading_deg=90, length_m=1500),
]


@pytest.mark.parametrize(
    ("wind", "speed", "heading", "head", "cross"),
    [
        (310, 20, 310, 20, 0),
        (130, 20, 310, -20, 0),
        (40, 20, 310, 0, 20),
        (340, 20, 310, 20 * math.cos(math.radians(30)), 10),
        (360, 10, 90, 0, 10),
        (0, 10, 90, 0, 10),
        (90, 0, 90, 0, 0),
    ],
)
def test_components(wind, speed, heading, head, cross):
    h, c = wind_components(wind, speed, heading)
    assert h == pytest.approx(head, abs=1e-9) and c == pytest.approx(cross, abs=1e-9)


def test_best_end_prefers_low_crosswind_then_headwind():
    end = best_runway_end(RUNWAYS, 300, 20)
    assert (end.runway, end.end) == ("13/31", "31") and end.headwind_kt > 0
    short_ok = best_runway_end(RUNWAYS, 270, 20)
    assert short_ok.end == "27" and short_ok.crosswind_kt == 0
    assert best_runway_end(RUNWAYS, 270, 20, min_length_m=2100).runway == "13/31"
    assert best_runway_end([], 270, 20) is None


def profile(**kw) -> AirportProfile:
    values = dict(
        iata="AUH",
        icao="OMAA",
        name="Abu Dhabi",
        city="Abu Dhabi",
        country="AE",
        tz="Asia/Dubai",
        lat=24.4,
        lon=54.6,
        elevation_ft=88,
        runways=RUNWAYS,
    )
    values.update(kw)
    return AirportProfile(**values)


def obs(**kw) -> WeatherObservation:
    values = dict(
        airport="AUH",
        forecast_time=utc(2027, 1, 20, 6),
        visibility_m=9999,
        wind_direction_deg=40,
        wind_speed_kt=20,
        temperature_c=22,
    )
    values.update(kw)
    return WeatherObservation(**values)


def rules(assessment):
    return {f.rule: f for f in assessment.findings}


def test_crosswind_limit_uses_gusts():
    calm = rules(assess_weather(obs(), profile(), "A320"))
    assert calm["wx.crosswind"].status == "legal" and calm["wx.minima"].status == "legal"
    gusty = rules(assess_weather(obs(gust_kt=39), profile(), "A320"))  # 39 kt across 13/31, A320 limit 38
    assert gusty["wx.crosswind"].status == "illegal" and gusty["wx.crosswind"].binding
    assert gusty["wx.crosswind"].actual == 39 and gusty["wx.crosswind"].limit == 38
    near = rules(assess_weather(obs(gust_kt=35), profile(), "A320"))
    assert near["wx.crosswind"].status == "at_risk"
    assert rules(assess_weather(obs(gust_kt=39), profile(), "B789"))["wx.crosswind"].status == "at_risk"


def test_minima():
    fog = rules(assess_weather(obs(visibility_m=400, phenomena=["FG"]), profile(), "A320"))
    assert fog["wx.minima"].status == "illegal" and "CAT.OP.MPA.305" in fog["wx.minima"].clause
    low = rules(assess_weather(obs(visibility_m=2000, ceiling_ft=150), profile(), "A320"))
    assert low["wx.minima"].status == "illegal"
    near = rules(assess_weather(obs(visibility_m=600), profile(), "A320"))
    assert near["wx.minima"].status == "at_risk"


def test_phenomena_and_missing_runways():
    storm = rules(assess_weather(obs(phenomena=["+TSRA"]), profile(), "A320"))
    assert storm["wx.phenomena"].status == "at_risk"
    bare = rules(assess_weather(obs(), profile(runways=[]), "A320"))
    assert bare["wx.crosswind"].status == "at_risk"
    short = rules(assess_weather(obs(), profile(runways=[RUNWAYS[1]]), "A320"))
    assert short["wx.runway_length"].status == "at_risk"
