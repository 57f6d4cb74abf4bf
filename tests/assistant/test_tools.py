"""Each tool on the real airport and rules data."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.assistant import airports as ap
from skymarshal.assistant.tools import MANIFEST, ToolInputError, run_tool
from skymarshal.models.airports import haversine_km
from skymarshal.models.operational import Notam

HUBS = ["AUH", "LHR", "FRA", "JFK", "SYD", "SIN", "DOH", "CDG", "BOM", "NRT", "GRU", "JNB"]


def test_alternates_near_auh_lhr_are_airports_actually_near_that_route(context):
    result = run_tool(
        "find_airports_near_route",
        {
            "departure": "AUH",
            "destination": "LHR",
            "corridor_nm": 150,
            "filters": {"aircraft_type": "787", "scheduled_service": True},
        },
        context,
    )
    codes = [a["iata"] for a in result["airports"]]
    # Known airports under the AUH-LHR great circle: the Gulf, Iraq, Turkey, the Balkans, central Europe.
    assert {"DOH", "KWI", "BGW", "ESB", "BEG", "MUC", "AMS"} <= set(codes)
    assert result["total"] >= result["count"] == len(codes)
    assert "SYD" not in codes and "JFK" not in codes and "AUH" not in codes and "LHR" not in codes
    along = [a["along_route_nm"] for a in result["airports"]]
    assert along == sorted(along) and along[-1] <= result["route_length_nm"]
    assert 2900 < result["route_length_nm"] < 3050  # AUH-LHR is about 2,980 nm
    assert all(a["longest_runway_ft"] >= 9186 for a in result["airports"])


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(HUBS), st.sampled_from(HUBS), st.floats(20, 300))
def test_every_route_result_lies_within_the_corridor_of_both_ends_segment(context, a, b, corridor):
    if a == b:
        return
    result = run_tool("find_airports_near_route", {"departure": a, "destination": b, "corridor_nm": corridor}, context)
    dep, dest = ap.find_airport(a), ap.find_airport(b)
    length_km = haversine_km(dep.lat, dep.lon, dest.lat, dest.lon)
    for airport in result["airports"]:
        assert airport["distance_nm"] <= corridor + 0.05
        # Within the corridor of the segment: no farther from either end than the segment plus the corridor.
        to_dep = haversine_km(dep.lat, dep.lon, airport["lat"], airport["lon"]) / ap.KM_PER_NM
        to_dest = haversine_km(dest.lat, dest.lon, airport["lat"], airport["lon"]) / ap.KM_PER_NM
        assert max(to_dep, to_dest) <= length_km / ap.KM_PER_NM + corridor + 1


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(HUBS), st.floats(10, 400))
def test_near_location_is_sorted_and_within_radius(context, code, radius):
    result = run_tool("find_airports_near_location", {"location": code, "radius_nm": radius}, context)
    distances = [a["distance_nm"] for a in result["airports"]]
    assert distances == sorted(distances) and all(d <= radius + 0.05 for d in distances)  # shown to 0.1 nm
    assert code not in [a["iata"] for a in result["airports"]]


def test_near_location_by_place_name_with_a_runway_filter(context):
    result = run_tool(
        "find_airports_near_location",
        {"location": "Heathrow", "radius_nm": 60, "filters": {"min_runway_ft": 10000}},
        context,
    )
    codes = [a["iata"] for a in result["airports"]]
    assert "LGW" in codes and "STN" in codes  # surveyed runways 3,316 m and 3,048 m
    assert all(a["longest_runway_ft"] >= 10000 for a in result["airports"])


def test_details_join_the_three_sources(context):
    lhr = run_tool("get_airport_details", {"code": "EGLL"}, context)["airport"]
    assert lhr["iata"] == "LHR" and lhr["tz"] == "Europe/London"  # airportsdata
    assert lhr["kind"] == "large_airport" and lhr["scheduled_service"] is True  # airports-py
    assert lhr["runway_source"] == "reference" and lhr["longest_runway_ft"] == round(3902 * ap.FT_PER_M)
    assert lhr["curfews"][0]["kind"] == "night_quota"  # rules.curfew
    assert lhr["elevation_ft"] < 200  # airportsdata's, not airports-py's broken column


def test_unknown_airport_is_a_clear_tool_error(context):
    with pytest.raises(ToolInputError, match="unknown airport 'ZZZ'"):
        run_tool("get_airport_details", {"code": "ZZZ"}, context)


def test_notification_inside_and_outside_the_frankfurt_curfew(context):
    inside = run_tool("get_notification_for_airport", {"code": "FRA", "at": "2027-01-20T23:30:00Z"}, context)
    assert inside["curfew"]["status"] == "illegal" and inside["notams"]["connected"] is False
    outside = run_tool("get_notification_for_airport", {"code": "FRA", "at": "2027-01-20T12:00:00Z"}, context)
    assert outside["curfew"]["status"] == "legal"


def test_notification_reports_notams_in_force_when_connected(context):
    notam = Notam(
        iata="LHR",
        record="NOTAM#2027-01-20T23:00:00Z#A1100/27",
        notam_id="A1100/27",
        kind="RUNWAY_CLOSED",
        starts_at=datetime(2027, 1, 20, 23, tzinfo=UTC),
        ends_at=datetime(2027, 1, 21, 5, tzinfo=UTC),
        runway="09R/27L",
        text="RWY 09R/27L CLSD",
    )
    connected = type(context)(
        behaviour=context.behaviour,
        rules=context.rules,
        notams=lambda iata, start, end: [notam] if iata == "LHR" else [],
    )
    during = run_tool("get_notification_for_airport", {"code": "LHR", "at": "2027-01-21T01:00:00Z"}, connected)
    assert [n["notam_id"] for n in during["notams"]["active"]] == ["A1100/27"]
    before = run_tool("get_notification_for_airport", {"code": "LHR", "at": "2027-01-20T20:00:00Z"}, connected)
    assert before["notams"]["active"] == []


def test_rules_answer_finds_the_frankfurt_curfew_and_respects_the_threshold(context):
    result = run_tool("answer_rules_question", {"country": "Germany", "question": "curfew at Frankfurt"}, context)
    assert result["results"][0]["id"] == "DE-night-flights"
    assert all(r["score"] >= result["threshold"] for r in result["results"])
    nothing = run_tool("answer_rules_question", {"country": "DE", "question": "zebra crossings quokka"}, context)
    assert nothing["results"] == []


@settings(max_examples=30, deadline=None)
@given(st.sampled_from([None, "GB", "EU", "AU"]), st.integers(1, 7))
def test_browse_pages_cover_every_entry_once(context, country, limit):
    seen, offset = [], 0
    while True:
        page = run_tool("browse_rules", {"country": country, "offset": offset, "limit": limit}, context)
        seen += [e["id"] for e in page["entries"]]
        offset += limit
        if not page["has_more"]:
            break
    expected = [e.id for e in context.rules.entries if country is None or e.jurisdiction == country]
    assert seen == expected and page["total"] == len(expected)


def test_browse_refuses_an_unknown_tag(context):
    with pytest.raises(ToolInputError, match="unknown rules tag 'snacks'"):
        run_tool("browse_rules", {"tags": ["snacks"]}, context)


def test_comparison_uk_france_finds_the_currency_difference(context):
    result = run_tool(
        "compare_rules_between_countries", {"countries": ["UK", "France"], "tags": ["compensation"]}, context
    )
    topic = result["topics"][0]
    assert topic["tag"] == "compensation" and topic["differs"]
    pair = topic["pairs"][0]
    assert "gbp" in pair["only_in_a"] and "eur" in pair["only_in_b"]


def test_comparison_reports_a_topic_one_side_lacks(context):
    result = run_tool(
        "compare_rules_between_countries", {"countries": ["US", "NL"], "tags": ["denied_boarding"]}, context
    )
    assert result["topics"][0]["missing"] == ["NL"]


def test_comparison_needs_two_different_countries(context):
    with pytest.raises(ToolInputError, match="two different jurisdictions"):
        run_tool("compare_rules_between_countries", {"countries": ["UK", "Britain"]}, context)


def test_every_result_is_marked_with_its_tool_type(context):
    samples = {
        "search_airports": {"query": "Dubai"},
        "find_airports_near_location": {"location": "DXB"},
        "find_airports_near_route": {"departure": "AUH", "destination": "BOM"},
        "get_airport_details": {"code": "AUH"},
        "get_notification_for_airport": {"code": "SYD"},
        "answer_rules_question": {"country": "GB", "question": "delay compensation"},
        "browse_rules": {"tags": ["crew_duty"]},
        "compare_rules_between_countries": {"countries": ["GB", "EU"], "question": "delay"},
        "compute_max_fdp": {"start": "06:00", "sectors": 3},
    }
    assert set(samples) == set(MANIFEST)
    for name, arguments in samples.items():
        result = run_tool(name, arguments, context)
        assert result["_tool"] == name and result["_tool_type"] == MANIFEST[name].tool_type


def test_query_reformulation_flag_reaches_the_rules_tool(context):
    def top(reformulate: bool) -> str:
        behaviour = context.behaviour.model_copy(
            update={"features": context.behaviour.features.model_copy(update={"query_reformulation": reformulate})}
        )
        ctx = type(context)(behaviour=behaviour, rules=context.rules)
        return run_tool("answer_rules_question", {"country": "US", "question": "overbooked flight"}, ctx)["results"][0][
            "id"
        ]

    assert top(False) == "US-crew-duty"  # only "flight" is shared with the corpus
    assert top(True) == "US-denied-boarding"  # "overbooked" → "denied boarding"


@settings(max_examples=40, deadline=None)
@given(st.text(min_size=3, max_size=60), st.sampled_from(["GB", "EU", "US", "AU", "DE"]), st.booleans(), st.booleans())
def test_retrieval_is_ranked_thresholded_and_bounded(context, question, country, reformulate, rerank):
    found = context.rules.answer(country, question, top_k=4, threshold=0.12, reformulate=reformulate, rerank=rerank)
    scores = [r.score for r in found]
    assert scores == sorted(scores, reverse=True) and len(found) <= 4
    assert all(0.12 <= s <= 1.0001 for s in scores) and all(r.entry.jurisdiction == country for r in found)


def test_notams_from_a_data_handle_query_the_airport_key(context):
    from skymarshal.assistant.tools import notams_from
    from skymarshal.data import schema

    row = {
        "iata": "JFK",
        "record": "NOTAM#2027-01-10T00:00:00Z#A0412/27",
        "notam_id": "A0412/27",
        "kind": "RUNWAY_CLOSED",
        "starts_at": "2027-01-10T00:00:00Z",
        "ends_at": "2027-02-15T00:00:00Z",
        "runway": "13R/31L",
        "text": "RWY 13R/31L CLSD FOR RESURFACING",
    }

    class Handle:
        def __init__(self):
            self.calls = []

        def query(self, table, condition, **kwargs):
            self.calls.append(table)
            return [row]

    handle = Handle()
    connected = type(context)(behaviour=context.behaviour, rules=context.rules, notams=notams_from(handle))
    result = run_tool("get_notification_for_airport", {"code": "JFK", "at": "2027-01-20T12:00:00Z"}, connected)
    assert handle.calls == [schema.AIRPORTS]
    assert [n["notam_id"] for n in result["notams"]["active"]] == ["A0412/27"]
