"""EASA Subpart FTL cumulative limits (ORO.FTL.210) and minimum rest (ORO.FTL.235).

- ``cumulative_findings``  ORO.FTL.210(a) duty 60 h / 7 d, 110 h / 14 d, 190 h / 28 d;
                           ORO.FTL.210(b) flight time 100 h / 28 d, 900 h / calendar year,
                           1,000 h / 12 consecutive calendar months.
- ``min_rest_minutes``     ORO.FTL.235(a)/(b) home base max(preceding duty, 12 h); away max(preceding duty, 10 h).
- ``rest_finding``         the rest actually given before an FDP against that minimum.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, measured
from ._clock import fmt_hm, minutes_between
from ._windows import Span, WindowLoad, calendar_lump_load, max_lump_load, max_prorated_load
from .duties import DutyRecord

# ORO.FTL.210(a) — total duty periods: (clause, label, window, limit minutes)
DUTY_LIMITS_ORO_FTL_210_A: tuple[tuple[str, str, timedelta, int], ...] = (
    ("ORO.FTL.210(a)(1)", "7 consecutive days", timedelta(days=7), 60 * 60),
    ("ORO.FTL.210(a)(2)", "14 consecutive days", timedelta(days=14), 110 * 60),
    ("ORO.FTL.210(a)(3)", "28 consecutive days", timedelta(days=28), 190 * 60),
)
# ORO.FTL.210(b) — total flight time (block): (clause, label, window, limit minutes)
FLIGHT_TIME_LIMITS_ORO_FTL_210_B: tuple[tuple[str, str, timedelta | Literal["year", "12_months"], int], ...] = (
    ("ORO.FTL.210(b)(1)", "28 consecutive days", timedelta(days=28), 100 * 60),
    ("ORO.FTL.210(b)(2)", "calendar year", "year", 900 * 60),
    ("ORO.FTL.210(b)(3)", "12 consecutive calendar months", "12_months", 1000 * 60),
)
# Share of each duty kind counted as duty for ORO.FTL.210: airport standby counts in full (ORO.FTL.225(c));
# standby other than airport standby 25 % (CS FTL.1.225(b)(3)). STANDBY rows are taken to be standby
# other than airport standby (verify against the operator's roster; set 1.0 for airport standby).
DUTY_CREDIT: dict[str, float] = {"FLIGHT": 1.0, "HISTORY": 1.0, "POSITIONING": 1.0, "STANDBY": 0.25}

# ORO.FTL.235 — minimum rest before an FDP: the preceding duty, but at least this long.
MIN_REST_ORO_FTL_235: dict[str, int] = {"home": 12 * 60, "away": 10 * 60}


def _duty_span(record: DutyRecord, credit: dict[str, float]) -> Span:
    return Span(record.start, record.end, credit.get(record.kind, 1.0))


def _others(history: Sequence[DutyRecord], proposed: DutyRecord) -> list[DutyRecord]:
    return [d for d in history if proposed.duty_id is None or d.duty_id != proposed.duty_id]


def cumulative_findings(
    history: Sequence[DutyRecord],
    proposed: DutyRecord,
    *,
    subject: str,
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES,
    calendar_tz: str = "UTC",
    duty_credit: dict[str, float] | None = None,
) -> list[Finding]:
    """ORO.FTL.210: every cumulative limit, checked over the worst window that contains the proposed duty.

    Duty counts by the minutes inside the window (times ``duty_credit`` for standby). Flight time counts
    the whole block time of any duty that touches the window (conservative). Calendar windows are local
    to ``calendar_tz``. A history record with the proposed duty's ``duty_id`` is left out (it is replaced).
    """
    credit = DUTY_CREDIT if duty_credit is None else duty_credit
    others = _others(history, proposed)
    findings: list[Finding] = []
    duty_spans = [_duty_span(d, credit) for d in others]
    window: timedelta | Literal["year", "12_months"]
    for clause, label, window, limit in DUTY_LIMITS_ORO_FTL_210_A:
        load = max_prorated_load(duty_spans, _duty_span(proposed, credit), window)
        findings.append(
            _window_finding("crew.cumulative_duty", clause, "duty", label, limit, load, subject, at_risk_minutes)
        )
    block_spans = [Span(d.start, d.end, d.block_minutes) for d in others]
    focus = Span(proposed.start, proposed.end, proposed.block_minutes)
    for clause, label, window, limit in FLIGHT_TIME_LIMITS_ORO_FTL_210_B:
        if isinstance(window, timedelta):
            load = max_lump_load(block_spans, focus, window)
        else:
            load = calendar_lump_load(block_spans, focus, window, calendar_tz)
        findings.append(
            _window_finding(
                "crew.cumulative_flight_time", clause, "flight time", label, limit, load, subject, at_risk_minutes
            )
        )
    return findings


def _window_finding(
    rule: str, clause: str, what: str, label: str, limit: int, load: WindowLoad, subject: str, at_risk_minutes: int
) -> Finding:
    actual = round(load.minutes)
    return measured(
        rule=rule,
        clause=clause,
        subject=subject,
        limit=limit,
        actual=actual,
        bound="max",
        at_risk_minutes=at_risk_minutes,
        message=lambda margin: (
            f"{what.capitalize()} of {fmt_hm(actual)} h in {label} is "
            f"{'over' if margin < 0 else 'within'} the {fmt_hm(limit)} h limit (margin {fmt_hm(margin)})."
        ),
        details={
            "window": label,
            "window_start": load.window_start.isoformat(),
            "window_end": load.window_end.isoformat(),
        },
    )


def min_rest_minutes(preceding_duty_minutes: int, at_home_base: bool) -> int:
    """ORO.FTL.235(a)/(b): rest before an FDP ≥ the preceding duty, and ≥ 12 h at home base / 10 h away.

    Away from base the 10 h must include an 8 h sleep opportunity (accommodation, not checked here).
    """
    floor = MIN_REST_ORO_FTL_235["home" if at_home_base else "away"]
    return max(preceding_duty_minutes, floor)


def rest_finding(
    previous: DutyRecord | None,
    report: datetime,
    *,
    at_home_base: bool,
    subject: str,
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES,
    rule: str = "crew.rest_before",
) -> Finding:
    """ORO.FTL.235: the rest between ``previous`` (released) and ``report`` against ``min_rest_minutes``."""
    clause = "ORO.FTL.235(a)" if at_home_base else "ORO.FTL.235(b)"
    where = "at home base" if at_home_base else "away from base"
    if previous is None:
        return Finding(
            rule=rule,
            clause=clause,
            status="legal",
            subject=subject,
            message="No earlier duty on record: rest before this duty is not limited by the roster.",
        )
    required = min_rest_minutes(previous.duty_minutes, at_home_base)
    actual = minutes_between(previous.end, report)
    return measured(
        rule=rule,
        clause=clause,
        subject=subject,
        limit=required,
        actual=actual,
        bound="min",
        at_risk_minutes=at_risk_minutes,
        message=lambda margin: (
            f"Rest {where} of {fmt_hm(actual)} h after a {fmt_hm(previous.duty_minutes)} h duty "
            f"{'meets' if margin >= 0 else 'is short of'} the {fmt_hm(required)} h minimum."
        ),
        details={
            "previous_duty_id": previous.duty_id,
            "previous_release": previous.end.isoformat(),
            "report": report.isoformat(),
            "at_home_base": at_home_base,
        },
    )
