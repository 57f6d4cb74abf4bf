"""FAA 14 CFR Part 117 (flightcrew member duty and rest), one function per section.

- ``max_fdp_minutes``           117.13(a) Table B unaugmented FDP, every cell as data; 117.13(b) not acclimated −30 min
- ``max_flight_time_minutes``   117.11(a) Table A unaugmented flight time
- ``min_rest_minutes`` / ``rest_finding``  117.25(e) 10 consecutive hours before any FDP
- ``weekly_rest_finding``       117.25(b) 30 consecutive hours free from duty in any 168 consecutive hours
- ``cumulative_findings``       117.23(b) flight time 100 h / 672 h, 1,000 h / 365 days;
                                117.23(c) FDP 60 h / 168 h, 190 h / 672 h
Not encoded: Table C (augmented), 117.19 extensions, 117.21 reserve. Augmented crews are held to Table B
(conservative) by the callers.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, time, timedelta
from typing import TypeVar

from pydantic import BaseModel, ConfigDict

from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, measured
from ._clock import fmt_hm, hm, in_band, minute_of_day, minutes_between
from ._windows import Span, max_lump_load, max_prorated_load
from .duties import DutyRecord

# 14 CFR 117 Table B — maximum FDP (hours), unaugmented, by scheduled start (acclimated) and segments:
# band first, band last (inclusive), limits for 1, 2, 3, 4, 5, 6, 7+ segments.
TABLE_B_SEGMENT_COLUMNS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6", "7+")
TABLE_B_117: tuple[tuple[str, str, tuple[float, ...]], ...] = (
    ("00:00", "03:59", (9, 9, 9, 9, 9, 9, 9)),
    ("04:00", "04:59", (10, 10, 10, 10, 9, 9, 9)),
    ("05:00", "05:59", (12, 12, 12, 12, 11.5, 11, 10.5)),
    ("06:00", "06:59", (13, 13, 12, 12, 11.5, 11, 10.5)),
    ("07:00", "11:59", (14, 14, 13, 13, 12.5, 12, 11.5)),
    ("12:00", "12:59", (13, 13, 13, 13, 12.5, 12, 11.5)),
    ("13:00", "16:59", (12, 12, 12, 12, 11.5, 11, 10.5)),
    ("17:00", "21:59", (12, 12, 11, 11, 10, 9, 9)),
    ("22:00", "22:59", (11, 11, 10, 10, 9, 9, 9)),
    ("23:00", "23:59", (10, 10, 10, 9, 9, 9, 9)),
)
NOT_ACCLIMATED_REDUCTION_117_13_B = 30  # minutes

# 14 CFR 117 Table A — maximum flight time (hours), unaugmented, by time of report (acclimated).
TABLE_A_117: tuple[tuple[str, str, float], ...] = (("00:00", "04:59", 8), ("05:00", "19:59", 9), ("20:00", "23:59", 8))

REST_BEFORE_FDP_117_25_E = 10 * 60  # consecutive minutes, including an 8 h sleep opportunity
WEEKLY_REST_117_25_B = (30 * 60, timedelta(hours=168))  # free from duty, within any 168 consecutive hours

# 117.23 — (clause, label, window, limit minutes)
FDP_LIMITS_117_23_C: tuple[tuple[str, str, timedelta, int], ...] = (
    ("14 CFR 117.23(c)(1)", "168 consecutive hours", timedelta(hours=168), 60 * 60),
    ("14 CFR 117.23(c)(2)", "672 consecutive hours", timedelta(hours=672), 190 * 60),
)
FLIGHT_TIME_LIMITS_117_23_B: tuple[tuple[str, str, timedelta, int], ...] = (
    ("14 CFR 117.23(b)(1)", "672 consecutive hours", timedelta(hours=672), 100 * 60),
    ("14 CFR 117.23(b)(2)", "365 consecutive calendar days", timedelta(days=365), 1000 * 60),
)


class FaaFdpLimit(BaseModel):
    model_config = ConfigDict(frozen=True)

    minutes: int
    clause: str
    band: str
    segments_column: str
    notes: tuple[str, ...] = ()


_Row = TypeVar("_Row", tuple[str, str, tuple[float, ...]], tuple[str, str, float])


def _row(table: Sequence[_Row], reference_start: time) -> _Row:
    minute = minute_of_day(reference_start)
    for row in table:
        if in_band(minute, hm(row[0]), hm(row[1])):
            return row
    raise AssertionError("the FAA tables cover the whole day")


def max_fdp_minutes(reference_start: time, segments: int, acclimated: bool = True) -> FaaFdpLimit:
    """117.13(a) Table B by scheduled start (local time where acclimated) and flight segments (7+ share a
    column); 117.13(b): 30 minutes less when the flightcrew member is not acclimated."""
    if segments < 1:
        raise ValueError("segments must be at least 1")
    first, last, cells = _row(TABLE_B_117, reference_start)
    column = min(segments, 7) - 1
    minutes = round(cells[column] * 60)
    clause, notes = "14 CFR 117.13(a) Table B", []
    if not acclimated:
        minutes -= NOT_ACCLIMATED_REDUCTION_117_13_B
        clause += " + 117.13(b)"
        notes.append("not acclimated: Table B reduced by 30 minutes")
    return FaaFdpLimit(
        minutes=minutes,
        clause=clause,
        band=f"{first}-{last}",
        segments_column=TABLE_B_SEGMENT_COLUMNS[column],
        notes=tuple(notes),
    )


def max_flight_time_minutes(reference_start: time) -> int:
    """117.11(a) Table A: maximum flight time for an unaugmented operation, by time of report."""
    return int(_row(TABLE_A_117, reference_start)[2] * 60)


def min_rest_minutes() -> int:
    """117.25(e): 10 consecutive hours of rest immediately before any FDP (8 h sleep opportunity)."""
    return REST_BEFORE_FDP_117_25_E


def rest_finding(
    previous: DutyRecord | None,
    report: datetime,
    *,
    subject: str,
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES,
    rule: str = "crew.rest_before",
) -> Finding:
    """117.25(e): the rest between the previous release and ``report`` against 10 hours."""
    clause = "14 CFR 117.25(e)"
    if previous is None:
        return Finding(
            rule=rule,
            clause=clause,
            status="legal",
            subject=subject,
            message="No earlier duty on record: rest before this duty is not limited by the roster.",
        )
    required = min_rest_minutes()
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
            f"Rest of {fmt_hm(actual)} h {'meets' if margin >= 0 else 'is short of'} the 10:00 h "
            "minimum before a flight duty period."
        ),
        details={"previous_duty_id": previous.duty_id, "previous_release": previous.end.isoformat()},
    )


def weekly_rest_finding(history: Sequence[DutyRecord], proposed: DutyRecord, *, subject: str) -> Finding:
    """117.25(b): within the 168 hours before the end of the proposed duty there must be 30 consecutive hours
    free from all duty. The longest gap found is reported (gaps before the first known duty count as free)."""
    need, window = WEEKLY_REST_117_25_B
    window_start = proposed.end - window
    others = [d for d in history if proposed.duty_id is None or d.duty_id != proposed.duty_id]
    busy = sorted(
        [(d.start, d.end) for d in others if d.end > window_start and d.start < proposed.end]
        + [(proposed.start, proposed.end)]
    )
    longest, cursor = 0, window_start
    for start, end in busy:
        longest = max(longest, minutes_between(cursor, start))
        cursor = max(cursor, end)
    longest = max(longest, minutes_between(cursor, proposed.end))
    margin = longest - need
    status = "legal" if margin >= 0 else "illegal"
    return Finding(
        rule="crew.weekly_rest",
        clause="14 CFR 117.25(b)",
        status=status,
        binding=status == "illegal",
        subject=subject,
        margin_minutes=margin,
        limit=need,
        actual=longest,
        unit="minutes",
        message=(
            f"Longest rest in the 168 h ending with this duty is {fmt_hm(longest)} h "
            f"({'meets' if margin >= 0 else 'is short of'} 30:00 h)."
        ),
    )


def cumulative_findings(
    history: Sequence[DutyRecord], proposed: DutyRecord, *, subject: str, at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES
) -> list[Finding]:
    """117.23: FDP hours (report → on-blocks of the last segment) and flight time over every rolling window
    that contains the proposed duty. Flight time of a duty touching a window counts in full (conservative)."""
    others = [d for d in history if proposed.duty_id is None or d.duty_id != proposed.duty_id]
    findings = []
    fdp_spans = [Span(d.start, d.fdp_until, 1.0) for d in others if d.is_flight_duty]
    focus = Span(proposed.start, proposed.fdp_until, 1.0)
    for clause, label, window, limit in FDP_LIMITS_117_23_C:
        load = max_prorated_load(fdp_spans, focus, window)
        findings.append(
            _finding("crew.cumulative_fdp", clause, "flight duty", label, limit, load.minutes, subject, at_risk_minutes)
        )
    block_spans = [Span(d.start, d.end, d.block_minutes) for d in others]
    block_focus = Span(proposed.start, proposed.end, proposed.block_minutes)
    for clause, label, window, limit in FLIGHT_TIME_LIMITS_117_23_B:
        load = max_lump_load(block_spans, block_focus, window)
        findings.append(
            _finding(
                "crew.cumulative_flight_time",
                clause,
                "flight time",
                label,
                limit,
                load.minutes,
                subject,
                at_risk_minutes,
            )
        )
    return findings


def _finding(
    rule: str, clause: str, what: str, label: str, limit: int, minutes: float, subject: str, at_risk_minutes: float
) -> Finding:
    actual = round(minutes)
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
            f"{'over' if margin < 0 else 'within'} the {fmt_hm(limit)} h limit."
        ),
        details={"window": label},
    )
