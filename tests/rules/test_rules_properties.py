"""Property tests: monotonicity and invariants of the rules."""

from __future__ import annotations

from datetime import date, time, timedelta
from zoneinfo import ZoneInfo

from hypothesis import given, settings
from hypothesis import strategies as st
from rules_helpers import duty_row, member, recent, utc

from skymarshal.models.airports import airport
from skymarshal.models.operational import MelItem, Runway
from skymarshal.rules import ftl_easa, ftl_faa
from skymarshal.rules.crew import OperatorRules, ProposedDuty, evaluate_delay, is_legal
from skymarshal.rules.curfew import DEFAULT_CURFEWS, check_movement
from skymarshal.rules.duties import DutyRecord
from skymarshal.rules.eu261 import Eu261Config, Reroute, assess_compensation
from skymarshal.rules.ftl_easa_limits import min_rest_minutes, rest_finding
from skymarshal.rules.mel import rectification_deadline
from skymarshal.rules.weather import best_runway_end, wind_components

times = st.builds(time, st.integers(0, 23), st.integers(0, 59))


@given(times, st.integers(1, 14), st.sampled_from(["acclimatised", "unknown"]))
def test_more_sectors_never_lengthen_the_easa_fdp(start, sectors, acclimatisation):
    fewer = ftl_easa.max_fdp_minutes(start, sectors, acclimatisation).minutes
    more = ftl_easa.max_fdp_minutes(start, sectors + 1, acclimatisation).minutes
    assert more <= fewer
    assert 9 * 60 <= more <= 13 * 60


@given(times, st.integers(1, 10), st.booleans())
def test_more_segments_never_lengthen_the_faa_fdp(start, segments, acclimated):
    assert (
        ftl_faa.max_fdp_minutes(start, segments + 1, acclimated).minutes
        <= ftl_faa.max_fdp_minutes(start, segments, acclimated).minutes
    )


@given(times, st.integers(1, 10), st.integers(0, 300))
def test_discretion_and_extension_never_shorten(start, sectors, discretion):
    base = ftl_easa.max_fdp_minutes(start, sectors).minutes
    extended = ftl_easa.max_fdp_minutes(
        start, sectors, extension=ftl_easa.PlannedExtension(), commanders_discretion_minutes=discretion
    ).minutes
    assert base <= extended <= base + 120


ROUTES = [
    ("LHR", "AUH", "EY"),
    ("FRA", "AUH", "EY"),
    ("AUH", "FRA", "LH"),
    ("FRA", "CDG", "LH"),
    ("LHR", "ATH", "BA"),
    ("HEL", "LPA", "AY"),
    ("AUH", "LHR", "EY"),
    ("JFK", "LHR", "BA"),
]


@settings(deadline=None)  # the first call loads the airport database
@given(
    st.sampled_from(ROUTES),
    st.integers(0, 1000),
    st.integers(0, 1000),
    st.sampled_from(["technical", "weather", "crew", None]),
    st.booleans(),
)
def test_longer_delay_never_lowers_compensation(route, delay_a, delay_b, cause, halve):
    config = Eu261Config(halve_long_haul_delay_3_to_4h=halve)
    short, long_ = sorted((delay_a, delay_b))
    a = assess_compensation(*route, "delay", arrival_delay_minutes=short, cause=cause, config=config).amount
    b = assess_compensation(*route, "delay", arrival_delay_minutes=long_, cause=cause, config=config).amount
    assert a <= b
    for kind in ("cancellation", "denied_boarding"):
        for notice in (None, 3, 10):
            a = assess_compensation(
                *route, kind, cause=cause, notice_days=notice, reroute=Reroute(arrival_delay_minutes=short)
            ).amount
            b = assess_compensation(
                *route, kind, cause=cause, notice_days=notice, reroute=Reroute(arrival_delay_minutes=long_)
            ).amount
            assert a <= b


REPORT = utc(2027, 1, 20, 4)
history_rows = st.lists(
    st.tuples(st.integers(-28 * 24, 3 * 24), st.integers(60, 14 * 60), st.sampled_from(["FLIGHT", "STANDBY"])),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(
    history_rows,
    st.integers(2 * 60, 13 * 60),
    st.integers(1, 6),
    st.integers(0, 600),
    st.integers(0, 600),
    st.sampled_from(["EASA", "FAA"]),
    st.sampled_from(["AUH", "LHR"]),
)
def test_a_legal_duty_stays_legal_when_the_delay_shrinks(rows, fdp, sectors, d1, d2, regime, start_station):
    captain = member(landings_at=recent(REPORT))
    history = [
        duty_row("C1", f"D{i}", REPORT + timedelta(hours=h), minutes, kind=kind, block=minutes // 2)
        for i, (h, minutes, kind) in enumerate(rows)
    ]
    duty = ProposedDuty(
        report=REPORT,
        fdp_end=REPORT + timedelta(minutes=fdp),
        sectors=sectors,
        aircraft_type="A320",
        start_station=start_station,
        end_station="AUH",
        block_minutes=fdp // 2,
    )
    rules = OperatorRules(regime=regime)
    small, large = sorted((d1, d2))
    if is_legal(evaluate_delay(captain, history, duty, large, rules)):
        assert is_legal(evaluate_delay(captain, history, duty, small, rules))
    # and margins never grow with the delay
    before = {(f.rule, f.clause): f.margin_minutes for f in evaluate_delay(captain, history, duty, small, rules)}
    after = {(f.rule, f.clause): f.margin_minutes for f in evaluate_delay(captain, history, duty, large, rules)}
    for key, margin in after.items():
        if margin is not None and before.get(key) is not None and key[0] != "crew.recency":
            assert margin <= before[key], key


@given(st.integers(0, 30 * 60), st.booleans(), st.integers(0, 30 * 60))
def test_rest_is_never_shorter_than_the_clause(previous_minutes, home, rest):
    required = min_rest_minutes(previous_minutes, home)
    assert required >= previous_minutes and required >= (12 * 60 if home else 10 * 60)
    previous = DutyRecord(start=REPORT - timedelta(minutes=previous_minutes + 1), end=REPORT)
    finding = rest_finding(previous, REPORT + timedelta(minutes=rest), at_home_base=home, subject="C1")
    assert (finding.status == "illegal") == (rest < min_rest_minutes(previous.duty_minutes, home))


def _local_minute_in(window, local):
    def m(text):
        h, mm = text.split(":")
        return int(h) * 60 + int(mm)

    minute, start, end = local.hour * 60 + local.minute, m(window.start_local), m(window.end_local)
    return start <= minute < end if start < end else (minute >= start or minute < end)


@settings(deadline=None)
@given(
    st.sampled_from(["SYD", "ADL", "OOL", "FRA", "CGN", "LHR"]),
    st.datetimes(min_value=utc(2026, 1, 1).replace(tzinfo=None), max_value=utc(2029, 1, 1).replace(tzinfo=None)),
)
def test_curfew_matches_local_wall_clock(iata, naive):
    at = naive.replace(second=0, microsecond=0, tzinfo=ZoneInfo("UTC"))
    local = at.astimezone(ZoneInfo(airport(iata).tz))
    window = DEFAULT_CURFEWS[iata][0]
    inside = _local_minute_in(window, local)
    finding = check_movement(iata, at, "arrival")
    if window.kind == "curfew":
        assert (finding.status == "illegal") == inside
    else:
        assert finding.status != "illegal"
        assert (finding.margin_minutes < 0) == inside


@given(st.integers(0, 360), st.integers(0, 80), st.integers(0, 360))
def test_wind_components_are_a_decomposition(direction, speed, heading):
    head, cross = wind_components(direction, speed, heading)
    assert abs(head**2 + cross**2 - speed**2) < 1e-6
    assert cross >= 0 and abs(head) <= speed + 1e-9
    opposite_head, opposite_cross = wind_components(direction, speed, heading + 180)
    assert abs(opposite_head + head) < 1e-9 and abs(opposite_cross - cross) < 1e-9


@given(st.lists(st.integers(0, 359), min_size=1, max_size=4), st.integers(0, 360), st.integers(1, 60))
def test_best_runway_end_has_the_least_crosswind(headings, direction, speed):
    runways = [Runway(designator=f"{i:02d}/{i + 18:02d}", heading_deg=h, length_m=3000) for i, h in enumerate(headings)]
    best = best_runway_end(runways, direction, speed)
    assert best.headwind_kt >= -1e-9
    for h in headings:
        assert best.crosswind_kt <= round(wind_components(direction, speed, h)[1], 1)


@given(st.sampled_from(["B", "C", "D"]), st.dates(max_value=date(9000, 1, 1)))
def test_mel_deadline_after_discovery(category, discovered):
    item = MelItem(reference="x", category=category, discovered_on=discovered)
    deadline = rectification_deadline(item)
    assert (deadline.date() - discovered).days == {"B": 4, "C": 11, "D": 121}[category]
