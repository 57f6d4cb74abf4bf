"""14 CFR 117.25 rest and 117.23 cumulative limits."""

from __future__ import annotations

from datetime import timedelta

from rules_helpers import utc

from skymarshal.rules.duties import DutyRecord
from skymarshal.rules.ftl_faa import cumulative_findings, rest_finding, weekly_rest_finding


def _duty(day: int, hours: float, block: int = 0, hour: int = 6, fdp_hours: float | None = None) -> DutyRecord:
    start = utc(2027, 3, day, hour)
    end = start + timedelta(hours=hours)
    fdp_end = start + timedelta(hours=fdp_hours) if fdp_hours is not None else None
    return DutyRecord(start=start, end=end, fdp_end=fdp_end, block_minutes=block)


def test_rest_ten_hours():
    previous = _duty(1, 12)  # released 18:00
    assert rest_finding(previous, utc(2027, 3, 2, 4), subject="P").status == "at_risk"  # exactly 10 h
    short = rest_finding(previous, utc(2027, 3, 2, 3, 59), subject="P")
    assert short.status == "illegal" and short.clause == "14 CFR 117.25(e)"
    assert rest_finding(previous, utc(2027, 3, 2, 6), subject="P").status == "legal"


def test_weekly_rest_thirty_hours_in_168():
    history = [_duty(d, 12) for d in range(1, 7)]  # 12 h duty, 12 h off, every day
    f = weekly_rest_finding(history, _duty(7, 10), subject="P")
    assert f.status == "illegal" and f.clause == "14 CFR 117.25(b)"
    with_day_off = [d for d in history if d.start.day != 4]
    assert weekly_rest_finding(with_day_off, _duty(7, 10), subject="P").status == "legal"


def test_cumulative_fdp_counts_to_on_blocks():
    history = [_duty(d, 12, fdp_hours=11) for d in range(1, 6)]  # 55 h of FDP
    f = {x.clause: x for x in cumulative_findings(history, _duty(6, 7, fdp_hours=6), subject="P")}
    assert f["14 CFR 117.23(c)(1)"].actual == 61 * 60 and f["14 CFR 117.23(c)(1)"].status == "illegal"
    assert f["14 CFR 117.23(c)(2)"].status == "legal"


def test_cumulative_flight_time_672_hours():
    history = [_duty(d, 10, block=9 * 60) for d in range(1, 12)]  # 99 h
    f = {x.clause: x for x in cumulative_findings(history, _duty(12, 3, block=90), subject="P")}
    assert f["14 CFR 117.23(b)(1)"].status == "illegal" and f["14 CFR 117.23(b)(1)"].margin_minutes == -30
