"""Crew entry points: one member, one duty — FDP, cumulative, rest, recency, qualification, delay, swap."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rules_helpers import duty_row, member, recent, utc

from skymarshal.models.findings import binding_constraints, constraint_text
from skymarshal.rules.crew import (
    OperatorRules,
    ProposedDuty,
    evaluate_delay,
    evaluate_duty,
    evaluate_swap_candidate,
    is_legal,
    latest_legal_delay,
)
from skymarshal.rules.ftl_easa import PlannedExtension

REPORT = utc(2027, 1, 20, 4)  # 08:00 in Abu Dhabi (UTC+4): band 06:00–13:29, 2 sectors → 13:00


def proposed(**kw) -> ProposedDuty:
    values = dict(
        report=REPORT,
        fdp_end=REPORT + timedelta(hours=10),
        sectors=2,
        aircraft_type="A320",
        start_station="AUH",
        end_station="AUH",
        block_minutes=7 * 60,
        label="EY1/EY2",
        duty_id="D-NEW",
    )
    values.update(kw)
    return ProposedDuty(**values)


def by_rule(findings):
    out = {}
    for f in findings:
        out.setdefault(f.rule, f)
    return out


@pytest.fixture
def captain():
    return member(landings_at=recent(REPORT))


def test_clean_duty_is_legal(captain):
    findings = evaluate_duty(captain, [], proposed())
    assert is_legal(findings)
    fdp = by_rule(findings)["crew.max_fdp"]
    assert fdp.limit == 13 * 60 and fdp.actual == 10 * 60 and fdp.margin_minutes == 180
    assert fdp.clause == "ORO.FTL.205(b)(1)" and fdp.details["reference_start"] == "08:00"
    rules = {f.rule for f in findings}
    assert {
        "crew.availability",
        "crew.type_qualification",
        "crew.recency",
        "crew.roster_conflict",
        "crew.max_fdp",
        "crew.cumulative_duty",
        "crew.cumulative_flight_time",
        "crew.rest_before",
    } <= rules


def test_reference_time_is_base_local_time(captain):
    # 02:30Z is 06:30 in Abu Dhabi (13:00) but 02:30 in London (17:00-04:59 → 11:00)
    duty = proposed(report=utc(2027, 1, 20, 2, 30), fdp_end=utc(2027, 1, 20, 14))
    assert by_rule(evaluate_duty(captain, [], duty))["crew.max_fdp"].limit == 13 * 60
    london = by_rule(evaluate_duty(captain, [], duty.model_copy(update={"reference_tz": "Europe/London"})))
    assert london["crew.max_fdp"].limit == 11 * 60 and london["crew.max_fdp"].status == "illegal"


def test_delay_grows_the_fdp(captain):
    assert by_rule(evaluate_delay(captain, [], proposed(), 180))["crew.max_fdp"].status == "at_risk"
    over = by_rule(evaluate_delay(captain, [], proposed(), 181))["crew.max_fdp"]
    assert over.status == "illegal" and over.binding and over.margin_minutes == -1
    assert "crew.max_fdp [ORO.FTL.205(b)(1)] C1" in constraint_text(over)
    assert latest_legal_delay(captain, [], proposed()) == 180


def test_latest_legal_delay_none_when_already_illegal(captain):
    assert latest_legal_delay(captain, [], proposed(fdp_end=REPORT + timedelta(hours=14))) is None


def test_explicit_extension_and_discretion(captain):
    long = proposed(fdp_end=REPORT + timedelta(hours=13, minutes=30))
    assert by_rule(evaluate_duty(captain, [], long))["crew.max_fdp"].status == "illegal"
    extended = long.model_copy(update={"extension": PlannedExtension()})
    assert by_rule(evaluate_duty(captain, [], extended))["crew.max_fdp"].status == "at_risk"
    discretion = long.model_copy(update={"commanders_discretion_minutes": 120})
    assert by_rule(evaluate_duty(captain, [], discretion))["crew.max_fdp"].limit == 15 * 60


def test_augmented_crew(captain):
    duty = proposed(fdp_end=REPORT + timedelta(hours=15), sectors=1, pilots_on_board=3, rest_facility_class=1)
    assert by_rule(evaluate_duty(captain, [], duty))["crew.max_fdp"].limit == 16 * 60
    no_class = duty.model_copy(update={"rest_facility_class": None})
    fdp = by_rule(evaluate_duty(captain, [], no_class))["crew.max_fdp"]
    assert fdp.limit == 13 * 60 and fdp.status == "illegal"


def test_rest_before_home_and_away(captain):
    previous = duty_row("C1", "D0", REPORT - timedelta(hours=19), 10 * 60)  # released 9 h before report
    rest = by_rule(evaluate_duty(captain, [previous], proposed()))["crew.rest_before"]
    assert rest.status == "illegal" and rest.limit == 12 * 60 and rest.actual == 9 * 60
    away = by_rule(evaluate_duty(captain, [previous], proposed(start_station="LHR")))["crew.rest_before"]
    assert away.limit == 10 * 60 and away.clause == "ORO.FTL.235(b)"


def test_rest_after_shrinks_with_delay(captain):
    following = duty_row("C1", "D2", REPORT + timedelta(hours=10, minutes=30 + 12 * 60 + 30), 8 * 60)
    assert by_rule(evaluate_duty(captain, [following], proposed()))["crew.rest_after"].status == "at_risk"
    late = by_rule(evaluate_delay(captain, [following], proposed(), 45))["crew.rest_after"]
    assert late.status == "illegal" and late.margin_minutes == -15


def test_roster_conflict(captain):
    clash = duty_row("C1", "D9", REPORT + timedelta(hours=2), 6 * 60)
    f = by_rule(evaluate_duty(captain, [clash], proposed()))["crew.roster_conflict"]
    assert f.status == "illegal" and f.details["conflicts"] == ["D9"]


def test_own_duty_is_replaced_not_counted_twice(captain):
    rows = [duty_row("C1", "D-NEW", REPORT, 10 * 60 + 30)]
    assert is_legal(evaluate_duty(captain, rows, proposed()))


def test_type_qualification_and_availability():
    b787 = member(ratings=("B787",), landings_at=recent(REPORT), landing_type="B789")
    f = by_rule(evaluate_duty(b787, [], proposed()))
    assert f["crew.type_qualification"].status == "illegal" and f["crew.type_qualification"].clause == "FCL.700(a)"
    assert f["crew.recency"].status == "illegal"
    assert by_rule(evaluate_duty(b787, [], proposed(aircraft_type="B78X")))["crew.type_qualification"].status == "legal"
    unknown = by_rule(evaluate_duty(b787, [], proposed(aircraft_type="C172")))["crew.type_qualification"]
    assert unknown.status == "illegal"
    sick = member(status="SICK", landings_at=recent(REPORT))
    assert by_rule(evaluate_duty(sick, [], proposed()))["crew.availability"].status == "illegal"


def test_recency_pilots_only():
    at = REPORT
    two = member(landings_at=recent(at, n=2))
    f = by_rule(evaluate_duty(two, [], proposed()))["crew.recency"]
    assert f.status == "illegal" and f.actual == 2 and f.clause == "FCL.060(b)(1)"
    old = member(landings_at=recent(at, n=3, days_ago=91))
    assert by_rule(evaluate_duty(old, [], proposed()))["crew.recency"].status == "illegal"
    lapsing = member(landings_at=[at - timedelta(days=90) + timedelta(hours=h) for h in (1, 2, 3)])
    assert by_rule(evaluate_duty(lapsing, [], proposed()))["crew.recency"].status == "at_risk"
    cabin = member(rank="CA")
    assert "crew.recency" not in by_rule(evaluate_duty(cabin, [], proposed()))
    faa = by_rule(evaluate_duty(two, [], proposed(), OperatorRules(regime="FAA")))["crew.recency"]
    assert faa.clause.startswith("14 CFR 121.439")


def test_swap_candidate_from_standby():
    reserve = member(crew_id="R1", landings_at=recent(REPORT))
    standby = duty_row("R1", "SB1", utc(2027, 1, 20, 0), 12 * 60, kind="STANDBY")
    findings = evaluate_swap_candidate(reserve, [standby], proposed(), report=utc(2027, 1, 20, 8))
    fdp = by_rule(findings)["crew.max_fdp"]
    assert fdp.details["standby_minutes"] == 8 * 60
    assert fdp.limit == 13 * 60 - 120 and "CS FTL.1.225(b)(7)" in fdp.clause
    assert fdp.actual == 6 * 60 and is_legal(findings)
    assert by_rule(findings)["crew.roster_conflict"].status == "legal"


def test_a_reserve_is_called_out_only_inside_their_standby():
    """The EY45 case of issue 30: a reserve standing by 13:00Z-01:00Z cannot report at 04:10Z."""
    reserve = member(crew_id="R1", landings_at=recent(REPORT))
    standby = duty_row("R1", "SB1", utc(2027, 1, 20, 13), 12 * 60, kind="STANDBY")
    early = by_rule(evaluate_swap_candidate(reserve, [standby], proposed(), report=utc(2027, 1, 20, 4, 10)))
    assert early["crew.standby_callout"].status == "illegal" and early["crew.standby_callout"].binding
    assert "20 Jan 13:00Z-21 Jan 01:00Z" in early["crew.standby_callout"].message
    inside = evaluate_swap_candidate(reserve, [standby], proposed(), report=utc(2027, 1, 20, 13, 30))
    assert by_rule(inside)["crew.standby_callout"].status == "legal"
    assert by_rule(evaluate_swap_candidate(reserve, [], proposed(), report=REPORT))["crew.standby_callout"].binding


def test_swap_candidate_needs_rest():
    reserve = member(crew_id="R1", landings_at=recent(REPORT))
    late_duty = duty_row("R1", "X", utc(2027, 1, 19, 14), 9 * 60)  # released 23:00Z
    standby = duty_row("R1", "SB1", utc(2027, 1, 20, 0), 12 * 60, kind="STANDBY")
    findings = evaluate_swap_candidate(reserve, [late_duty, standby], proposed(), report=utc(2027, 1, 20, 8))
    assert by_rule(findings)["crew.rest_before"].status == "illegal"
    assert binding_constraints(findings)


def test_faa_regime():
    rules = OperatorRules(regime="FAA")
    captain = member(landings_at=recent(REPORT))
    f = by_rule(evaluate_duty(captain, [], proposed(), rules))
    assert f["crew.max_fdp"].limit == 14 * 60 and f["crew.max_fdp"].clause == "14 CFR 117.13(a) Table B"
    assert f["crew.max_flight_time"].limit == 9 * 60 and f["crew.max_flight_time"].status == "legal"
    assert f["crew.weekly_rest"].status == "legal"
    heavy = by_rule(evaluate_duty(captain, [], proposed(block_minutes=9 * 60 + 30), rules))
    assert heavy["crew.max_flight_time"].status == "illegal"


def test_validation():
    with pytest.raises(ValueError):
        proposed(fdp_end=REPORT)
    with pytest.raises(ValueError):
        evaluate_delay(member(), [], proposed(), -5)
