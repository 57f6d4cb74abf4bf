"""ORO.FTL.205(b)(2), CS FTL.1.205(c), 205(d), 205(f), ORO.FTL.210 and ORO.FTL.235."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from rules_helpers import utc

from skymarshal.rules.duties import DutyRecord
from skymarshal.rules.ftl_easa import EasaFtlConfig, PlannedExtension, max_fdp_minutes
from skymarshal.rules.ftl_easa_limits import cumulative_findings, min_rest_minutes, rest_finding


@pytest.mark.parametrize(
    ("sectors", "hours"),
    [(1, "11:00"), (2, "11:00"), (3, "10:30"), (4, "10:00"), (5, "9:30"), (6, "9:00"), (7, "9:00"), (12, "9:00")],
)
@pytest.mark.parametrize("start", [time(3, 0), time(9, 0), time(18, 0)])
def test_unknown_acclimatisation(sectors, hours, start):
    limit = max_fdp_minutes(start, sectors, acclimatisation="unknown")
    h, m = hours.split(":")
    assert limit.minutes == int(h) * 60 + int(m)
    assert limit.clause == "ORO.FTL.205(b)(2)"


@pytest.mark.parametrize(
    ("extra", "rest_class", "hours"), [(1, 1, 16), (1, 2, 15), (1, 3, 14), (2, 1, 17), (2, 2, 16), (2, 3, 15)]
)
def test_augmented(extra, rest_class, hours):
    for start in (time(2, 0), time(10, 0), time(20, 0)):
        limit = max_fdp_minutes(start, 1, augmentation=(extra, rest_class))
        assert limit.minutes == hours * 60
        assert limit.clause == "CS FTL.1.205(c)"


def test_augmented_unknown_class_is_an_error():
    with pytest.raises(ValueError):
        max_fdp_minutes(time(10, 0), 1, augmentation=(1, 4))


def test_extension_only_when_passed():
    assert max_fdp_minutes(time(8, 0), 2).minutes == 13 * 60
    limit = max_fdp_minutes(time(8, 0), 2, extension=PlannedExtension())
    assert limit.minutes == 14 * 60
    assert limit.clause == "ORO.FTL.205(b)(1) + ORO.FTL.205(d)"
    assert limit.extension_minutes == 60


@pytest.mark.parametrize(
    ("start", "sectors", "granted"),
    [
        (time(19, 0), 3, 0),
        (time(4, 59), 3, 0),
        (time(18, 59), 3, 60),
        (time(5, 0), 3, 60),
        (time(22, 0), 2, 60),
        (time(22, 0), 1, 60),
    ],
)
def test_extension_restricted_band(start, sectors, granted):
    limit = max_fdp_minutes(start, sectors, extension=PlannedExtension())
    assert limit.extension_minutes == granted
    if not granted:
        assert any("refused" in n for n in limit.notes)


def test_extension_at_most_twice_in_seven_days_and_one_hour():
    assert (
        max_fdp_minutes(time(8, 0), 2, extension=PlannedExtension(extensions_in_previous_7_days=2)).extension_minutes
        == 0
    )
    assert (
        max_fdp_minutes(time(8, 0), 2, extension=PlannedExtension(extensions_in_previous_7_days=1)).extension_minutes
        == 60
    )
    cut = max_fdp_minutes(time(8, 0), 2, extension=PlannedExtension(minutes=90))
    assert cut.extension_minutes == 60 and any("cut" in n for n in cut.notes)


def test_extension_config_is_configurable():
    config = EasaFtlConfig(extension_restricted_band=("15:30", "06:14"), extension_restricted_above_sectors=1)
    assert max_fdp_minutes(time(16, 0), 2, extension=PlannedExtension(), config=config).extension_minutes == 0


def test_extension_refused_with_in_flight_rest_or_unknown_acclimatisation():
    assert max_fdp_minutes(time(8, 0), 1, augmentation=(1, 1), extension=PlannedExtension()).minutes == 16 * 60
    assert max_fdp_minutes(time(8, 0), 1, acclimatisation="unknown", extension=PlannedExtension()).minutes == 11 * 60


def test_commanders_discretion_explicit_and_capped():
    assert max_fdp_minutes(time(8, 0), 2, commanders_discretion_minutes=90).minutes == 13 * 60 + 90
    capped = max_fdp_minutes(time(8, 0), 2, commanders_discretion_minutes=200)
    assert capped.minutes == 15 * 60 and capped.discretion_minutes == 120
    assert "ORO.FTL.205(f)" in capped.clause
    augmented = max_fdp_minutes(time(8, 0), 1, augmentation=(2, 1), commanders_discretion_minutes=200)
    assert augmented.minutes == 17 * 60 + 180


def test_discretion_counts_from_the_basic_fdp():
    limit = max_fdp_minutes(time(8, 0), 2, extension=PlannedExtension(), commanders_discretion_minutes=120)
    assert limit.minutes == 13 * 60 + 120  # 1 h extension + 1 h discretion: 2 h above basic at most
    assert limit.discretion_minutes == 60


def _duty(day: int, hours: float, block: int = 0, kind: str = "FLIGHT", hour: int = 6) -> DutyRecord:
    start = utc(2027, 1, day, hour)
    return DutyRecord(start=start, end=start + timedelta(hours=hours), block_minutes=block, kind=kind)


def _by_clause(findings):
    return {f.clause: f for f in findings}


def test_cumulative_duty_seven_days():
    history = [_duty(d, 10) for d in range(1, 6)]  # 50 h in 5 days
    ok = _by_clause(cumulative_findings(history, _duty(6, 9), subject="C1"))["ORO.FTL.210(a)(1)"]
    assert ok.status == "legal" and ok.margin_minutes == 60 and ok.actual == 59 * 60
    near = _by_clause(cumulative_findings(history, _duty(6, 9.5), subject="C1"))["ORO.FTL.210(a)(1)"]
    assert near.status == "at_risk" and near.margin_minutes == 30
    lenient = _by_clause(cumulative_findings(history, _duty(6, 9.5), subject="C1", at_risk_minutes=30))
    assert lenient["ORO.FTL.210(a)(1)"].status == "legal"
    over = _by_clause(cumulative_findings(history, _duty(6, 11), subject="C1"))["ORO.FTL.210(a)(1)"]
    assert over.status == "illegal" and over.binding and over.margin_minutes == -60


def test_cumulative_counts_only_the_part_inside_the_window():
    history = [_duty(1, 10, hour=0)] + [_duty(d, 10) for d in range(2, 7)]  # day 1 00:00-10:00
    proposed = _duty(7, 10, hour=20)  # 7 Jan 20:00 → 8 Jan 06:00: the window ending then starts 1 Jan 06:00
    f = _by_clause(cumulative_findings(history, proposed, subject="C1"))["ORO.FTL.210(a)(1)"]
    assert f.actual == 64 * 60  # 4 h of day 1 + 50 h + 10 h


def test_cumulative_sees_future_duties_too():
    future = [_duty(d, 10) for d in range(3, 9)]  # 60 h after the proposed duty
    f = _by_clause(cumulative_findings(future, _duty(2, 5), subject="C1"))["ORO.FTL.210(a)(1)"]
    assert f.status == "illegal"


def test_standby_counts_a_quarter():
    history = [_duty(d, 12, kind="STANDBY") for d in range(1, 6)]
    f = _by_clause(cumulative_findings(history, _duty(6, 10), subject="C1"))["ORO.FTL.210(a)(1)"]
    assert f.actual == 15 * 60 + 10 * 60


def test_flight_time_limits():
    history = [_duty(d, 10, block=8 * 60) for d in range(1, 13)]  # 96 h block in 12 days
    f = _by_clause(cumulative_findings(history, _duty(13, 10, block=5 * 60), subject="C1"))
    assert f["ORO.FTL.210(b)(1)"].status == "illegal" and f["ORO.FTL.210(b)(1)"].actual == 101 * 60
    assert f["ORO.FTL.210(b)(2)"].status == "legal"


def test_calendar_year_resets():
    history = [DutyRecord(start=utc(2026, 12, 31, 1), end=utc(2026, 12, 31, 11), block_minutes=899 * 60)]
    f = _by_clause(cumulative_findings(history, _duty(2, 10, block=120), subject="C1"))
    assert f["ORO.FTL.210(b)(2)"].actual == 120  # new calendar year
    assert f["ORO.FTL.210(b)(3)"].actual == 901 * 60  # 12 consecutive calendar months still see it


def test_duty_replaced_by_its_proposal():
    old = DutyRecord(start=utc(2027, 1, 5, 6), end=utc(2027, 1, 5, 16), duty_id="D1")
    new = DutyRecord(start=utc(2027, 1, 5, 6), end=utc(2027, 1, 5, 17), duty_id="D1")
    f = _by_clause(cumulative_findings([old], new, subject="C1"))["ORO.FTL.210(a)(1)"]
    assert f.actual == 11 * 60


@pytest.mark.parametrize(
    ("duty", "home", "expected"),
    [(8 * 60, True, 12 * 60), (8 * 60, False, 10 * 60), (14 * 60, True, 14 * 60), (11 * 60, False, 11 * 60)],
)
def test_min_rest(duty, home, expected):
    assert min_rest_minutes(duty, home) == expected


def test_rest_finding_edges():
    previous = DutyRecord(start=utc(2027, 1, 1, 6), end=utc(2027, 1, 1, 14))
    exact = rest_finding(previous, utc(2027, 1, 2, 2), at_home_base=True, subject="C1")
    assert exact.status == "at_risk" and exact.margin_minutes == 0 and exact.clause == "ORO.FTL.235(a)"
    short = rest_finding(previous, utc(2027, 1, 2, 1, 59), at_home_base=True, subject="C1")
    assert short.status == "illegal" and short.binding
    away = rest_finding(previous, utc(2027, 1, 2, 0), at_home_base=False, subject="C1")
    assert away.status == "at_risk" and away.clause == "ORO.FTL.235(b)"
    assert rest_finding(None, utc(2027, 1, 2), at_home_base=True, subject="C1").status == "legal"
