"""NOTAM closures, slot tolerance and diversion alternates."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from ops_rows import curfew, notam, obs, profile, utc

from skymarshal.models.operational import CurfewWindow
from skymarshal.rules.regulatory import (
    RegulatoryConfig,
    active_notams,
    diversion_alternates,
    flight_slot_findings,
    nearest_observation,
    notam_findings,
    slot_finding,
)

T0, T1 = utc(2027, 1, 22, 0), utc(2027, 1, 22, 6)
TWO = profile("LHR", 51.47, -0.46, runways=(("09L/27R", 90, 3902), ("09R/27L", 90, 3660)))
ONE = profile("BHX", 52.45, -1.75, runways=(("15/33", 150, 3052),))


def test_airport_closed_is_illegal_and_binding_inside_the_window_only():
    closed = notam("LHR", "AIRPORT_CLOSED", T0, T1)
    (finding,) = notam_findings([closed], TWO, utc(2027, 1, 22, 3))
    assert finding.status == "illegal" and finding.binding and finding.rule == "airport.notam_closed"
    assert notam_findings([closed], TWO, T1) == []  # [starts_at, ends_at)
    assert notam_findings([closed], TWO, T0 - timedelta(hours=2), T0) == []  # window ending at its start
    assert len(notam_findings([closed], TWO, T0 - timedelta(hours=2), T0 + timedelta(minutes=1))) == 1
    assert notam_findings([closed], ONE, utc(2027, 1, 22, 3)) == []  # another airport


def test_runway_closed_is_at_risk_unless_it_is_the_only_runway():
    (two,) = notam_findings([notam("LHR", "RUNWAY_CLOSED", T0, T1, "09R/27L")], TWO, utc(2027, 1, 22, 3))
    assert two.status == "at_risk" and not two.binding
    (one,) = notam_findings([notam("BHX", "RUNWAY_CLOSED", T0, T1, "15/33")], ONE, utc(2027, 1, 22, 3))
    assert one.status == "illegal" and one.binding
    both = [notam("LHR", "RUNWAY_CLOSED", T0, T1, "09R/27L"), notam("LHR", "RUNWAY_CLOSED", T0, T1, "09L/27R")]
    assert {f.status for f in notam_findings(both, TWO, utc(2027, 1, 22, 3))} == {"illegal"}


def test_navaid_and_other_notams():
    navaid, other = notam("LHR", "NAVAID_UNSERVICEABLE", T0, T1), notam("LHR", "OTHER", T0, T1)
    assert [f.status for f in notam_findings([navaid, other], TWO, T0)] == ["at_risk", "legal"]
    assert len(active_notams([navaid, other], "LHR", T0)) == 2


@pytest.mark.parametrize(
    "moved, status", [(0, "legal"), (15, "legal"), (-15, "legal"), (16, "at_risk"), (-16, "at_risk"), (240, "at_risk")]
)
def test_slot_tolerance_edges(moved, status):
    finding = slot_finding(TWO, T1, T1 + timedelta(minutes=moved), "arrival", "EY11-20270122")
    assert finding.status == status and finding.margin_minutes == 15 - abs(moved)
    assert "WASG" in finding.clause and finding.subject == "EY11-20270122"


def test_flight_slot_findings_and_profile_tolerance():
    strict = profile("FRA", 50.03, 8.57, tz="Europe/Berlin", country="DE", slot_tolerance_minutes=5)
    dep, arr = flight_slot_findings(TWO, strict, T0, T1, T0 + timedelta(minutes=10), T1 + timedelta(minutes=10), "X")
    assert (dep.status, arr.status) == ("legal", "at_risk")


def test_nearest_observation_within_the_gap():
    rows = [obs("BHX", utc(2027, 1, 22, 5)), obs("BHX", utc(2027, 1, 22, 6)), obs("MAN", utc(2027, 1, 22, 5, 30))]
    assert nearest_observation(rows, "BHX", utc(2027, 1, 22, 5, 30)).forecast_time == utc(
        2027, 1, 22, 5
    )  # tie: earlier
    assert nearest_observation(rows, "BHX", utc(2027, 1, 22, 5, 50)).forecast_time == utc(2027, 1, 22, 6)
    assert nearest_observation(rows, "BHX", utc(2027, 1, 22, 9)) is None


ETA = utc(2027, 1, 22, 5, 35)
STORM = dict(wind_dir=190, wind=36, gust=55, vis=2500, ceiling=900, phenomena=("RA", "SQ"))


def _candidates():
    return [
        TWO,
        profile("BHX", 52.45, -1.75, runways=(("15/33", 150, 3052),)),
        profile("MAN", 53.35, -2.27, runways=(("05L/23R", 50, 3048),)),
        profile("FRA", 50.03, 8.57, tz="Europe/Berlin", country="DE"),
        profile("SOU", 50.95, -1.36, runways=(("02/20", 20, 1723),)),
        profile("EMA", 52.83, -1.33),
        profile("LGW", 51.15, -0.19, runways=(("08R/26L", 80, 3316),)),
        profile("STN", 51.88, 0.24, runways=(("04/22", 40, 3048), ("05/23", 50, 1500))),
        profile("LTN", 51.87, -0.37),
        profile("BRS", 51.38, -2.72, curfews=[curfew("23:00", "06:30")]),
        profile("DUB", 53.42, -6.27, runways=(), tz="Europe/Dublin", country="IE"),
        profile("CWL", 51.40, -3.34, runways=(("12/30", 120, 2392), ("02/20", 20, 2900))),
    ]


def _weather():
    rows = []
    for code in ("BHX", "MAN", "FRA", "SOU", "STN", "LTN", "BRS", "DUB", "CWL"):
        rows += [obs(code, utc(2027, 1, 22, h), wind_dir=230, wind=10) for h in (5, 6)]
    rows += [obs("LGW", utc(2027, 1, 22, h), **STORM) for h in (5, 6)]
    return rows


def test_alternates_are_ranked_and_every_refusal_is_typed():
    notams = [notam("LTN", "AIRPORT_CLOSED", T0, T1), notam("STN", "RUNWAY_CLOSED", T0, T1, "04/22")]
    result = diversion_alternates(TWO, _candidates(), "B789", ETA, _weather(), notams)
    assert [a.iata for a in result.ranked] == ["BHX", "CWL", "MAN"]
    refused = {r.iata: r.code for r in result.refused}
    assert refused == {
        "LHR": "IS_DESTINATION",
        "FRA": "OUT_OF_RANGE",
        "SOU": "RUNWAY_TOO_SHORT",
        "EMA": "NO_WEATHER",
        "LGW": "WEATHER",
        "STN": "RUNWAY_TOO_SHORT",
        "LTN": "AIRPORT_CLOSED",
        "BRS": "CURFEW",
        "DUB": "NO_RUNWAY_DATA",
    }
    bhx = next(a for a in result.ranked if a.iata == "BHX")
    assert 135 < bhx.distance_km < 145 and ETA < bhx.eta < ETA + timedelta(minutes=30)
    assert all(f.status != "illegal" for a in result.ranked for f in a.findings)


def test_ranking_is_by_distance_among_clean_alternates():
    result = diversion_alternates(TWO, _candidates(), "B789", ETA, _weather())
    clean = [a for a in result.ranked if a.at_risk == 0]
    assert [a.distance_km for a in clean] == sorted(a.distance_km for a in clean)
    cwl = next(a for a in result.ranked if a.iata == "CWL")
    assert cwl.longest_open_runway_m == 2900


def test_a_smaller_fuel_range_removes_distant_alternates():
    result = diversion_alternates(TWO, _candidates(), "B789", ETA, _weather(), max_distance_km=150)
    assert [a.iata for a in result.ranked] == ["LTN", "STN", "BHX"] and result.max_distance_km == 150
    assert {r.iata for r in result.refused if r.code == "OUT_OF_RANGE"} >= {"MAN", "CWL", "FRA"}


def test_at_risk_weather_is_refused_by_policy_unless_accepted():
    squally = [obs("BHX", utc(2027, 1, 22, 6), wind_dir=150, wind=10, phenomena=("SQ",))]
    cands = [profile("BHX", 52.45, -1.75, runways=(("15/33", 150, 3052),))]
    refused = diversion_alternates(TWO, cands, "B789", ETA, squally)
    assert [r.code for r in refused.refused] == ["WEATHER"] and "SQ" in refused.refused[0].message
    accepted = diversion_alternates(
        TWO, cands, "B789", ETA, squally, config=RegulatoryConfig(accept_at_risk_weather=True)
    )
    assert [a.iata for a in accepted.ranked] == ["BHX"] and accepted.ranked[0].at_risk == 1


def test_a_night_quota_alternate_is_accepted_at_risk():
    quota = CurfewWindow(start_local="23:30", end_local="06:30", kind="night_quota", source="test quota")
    cands = [profile("BHX", 52.45, -1.75, curfews=[quota])]
    result = diversion_alternates(TWO, cands, "B789", ETA, [obs("BHX", utc(2027, 1, 22, 6))])
    assert result.ranked[0].at_risk == 1


def test_an_unknown_type_refuses_every_candidate():
    result = diversion_alternates(TWO, _candidates()[1:3], "XXXX", ETA, _weather())
    assert result.ranked == () and {r.code for r in result.refused} == {"UNKNOWN_TYPE"}


def test_real_ey11_storm_alternates(ops):
    flight = ops.flight("EY11", date(2027, 1, 22))
    result = diversion_alternates(
        ops.profiles[flight.destination],
        list(ops.profiles.values()),
        flight.aircraft_type,
        flight.scheduled_arrival,
        ops.weather,
        ops.notams,
    )
    valid = [a.iata for a in result.ranked]
    refused = {r.iata: r for r in result.refused}
    assert "MAN" in valid and "BHX" in valid
    assert refused["LGW"].code == "WEATHER" and "Crosswind" in refused["LGW"].message
    assert refused["STN"].code == "WEATHER" and "SQ" in refused["STN"].message
    assert refused["LHR"].code == "IS_DESTINATION"
    assert all(a.distance_km <= 500 for a in result.ranked)
    assert valid.index("BHX") < valid.index("MAN")  # both clean: nearest first
