"""Crew qualification for an aircraft type: rating group and 90-day recency.

- ``type_qualification_finding``  pilots: FCL.700(a) (EASA) / 14 CFR 61.31(a), 121.433 (FAA);
                                  cabin crew: ORO.CC.125 (EASA) / 14 CFR 121.433 (FAA).
                                  Qualified = holds the type's rating group (``AIRCRAFT_TYPES[code].rating_group``).
- ``recency_finding``             pilots only: 3 take-offs and landings in the rating group within the
                                  preceding 90 days — FCL.060(b)(1) (EASA) / 14 CFR 121.439(a), 61.57(a) (FAA).
- ``availability_finding``        a member marked SICK or on LEAVE cannot be rostered.
- ``standby_callout_finding``     a reserve reports only from a standby period running at the report (ORO.FTL.225).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Literal

from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import PILOT_RANKS, CrewDuty, CrewMember

Regime = Literal["EASA", "FAA"]

TYPE_QUALIFICATION_CLAUSE: dict[tuple[str, bool], str] = {  # (regime, is pilot) → clause
    ("EASA", True): "FCL.700(a)",
    ("EASA", False): "ORO.CC.125",
    ("FAA", True): "14 CFR 61.31(a) / 121.433",
    ("FAA", False): "14 CFR 121.433",
}
RECENCY_CLAUSE: dict[str, str] = {"EASA": "FCL.060(b)(1)", "FAA": "14 CFR 121.439(a) / 61.57(a)"}
RECENCY_DAYS = 90
RECENCY_TAKEOFFS_LANDINGS = 3


def is_pilot(member: CrewMember) -> bool:
    return member.rank in PILOT_RANKS


def rating_group(aircraft_type: str) -> str | None:
    known = AIRCRAFT_TYPES.get(aircraft_type)
    return known.rating_group if known else None


def availability_finding(member: CrewMember) -> Finding:
    """A member whose roster status is SICK or LEAVE is not available for duty."""
    ok = member.status == "ACTIVE"
    return Finding(
        rule="crew.availability",
        clause="Operator roster status",
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=member.crew_id,
        message=(
            f"{member.name} is {'active' if ok else member.status.lower()} and "
            f"{'available' if ok else 'not available'} for duty."
        ),
        details={"status": member.status},
    )


def type_qualification_finding(member: CrewMember, aircraft_type: str, regime: Regime = "EASA") -> Finding:
    """The member must hold the rating group of the aircraft type flown. Unknown type → illegal (unproven)."""
    clause = TYPE_QUALIFICATION_CLAUSE[(regime, is_pilot(member))]
    group = rating_group(aircraft_type)
    if group is None:
        return Finding(
            rule="crew.type_qualification",
            clause=clause,
            status="illegal",
            binding=True,
            subject=member.crew_id,
            message=f"Aircraft type {aircraft_type!r} is not in the fleet table; qualification is unproven.",
            details={"aircraft_type": aircraft_type},
        )
    ok = group in member.type_ratings
    return Finding(
        rule="crew.type_qualification",
        clause=clause,
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=member.crew_id,
        message=(
            f"{member.rank} {member.name} {'holds' if ok else 'does not hold'} the {group} rating "
            f"needed for the {aircraft_type}."
        ),
        details={"aircraft_type": aircraft_type, "rating_group": group, "type_ratings": list(member.type_ratings)},
    )


def recency_finding(
    member: CrewMember,
    aircraft_type: str,
    at: datetime,
    until: datetime | None = None,
    regime: Regime = "EASA",
    *,
    days: int = RECENCY_DAYS,
    required: int = RECENCY_TAKEOFFS_LANDINGS,
) -> Finding | None:
    """Pilots only (None for cabin crew): ``required`` take-offs and landings in the type's rating group in the
    ``days`` before ``at`` (the report time). Legal when still valid at ``until`` (last on-blocks); at_risk when
    it lapses during the duty (the duty's own landings may renew it); illegal when not met at report."""
    if not is_pilot(member):
        return None
    clause = RECENCY_CLAUSE[regime]
    group = rating_group(aircraft_type)
    since = at - timedelta(days=days)
    landings = sorted(
        (
            rec.at
            for rec in member.recent_landings
            if group is not None and rating_group(rec.aircraft_type) == group and since < rec.at <= at
        ),
        reverse=True,
    )
    count = len(landings)
    details: dict[str, Any] = {"rating_group": group, "window_days": days, "landings_in_window": count}
    if count < required:
        return Finding(
            rule="crew.recency",
            clause=clause,
            status="illegal",
            binding=True,
            subject=member.crew_id,
            limit=required,
            actual=count,
            unit="landings",
            message=(
                f"{member.rank} {member.name} has {count} take-offs and landings in the {group or aircraft_type} "
                f"group in the last {days} days; {required} are required."
            ),
            details=details,
        )
    expires = landings[required - 1] + timedelta(days=days)
    end = until or at
    margin = int((expires - end).total_seconds() // 60)
    details["recency_expires"] = expires.isoformat()
    lapses = expires < end
    return Finding(
        rule="crew.recency",
        clause=clause,
        status="at_risk" if lapses else "legal",
        subject=member.crew_id,
        margin_minutes=margin,
        limit=required,
        actual=count,
        unit="landings",
        message=(
            f"{member.rank} {member.name} has {count} take-offs and landings in the {group} group in the last "
            f"{days} days; recency {'lapses during this duty' if lapses else 'holds'} "
            f"(until {expires:%Y-%m-%d %H:%M}Z)."
        ),
        details=details,
    )


STANDBY_CLAUSE = "ORO.FTL.225 / CS FTL.1.225: a reserve is called out from a standby period that covers the report"


def standby_callout_finding(member: CrewMember, history: Sequence[CrewDuty], report: datetime) -> Finding:
    """A reserve reports for a duty only from a standby period running at the report (its start < report ≤ its end,
    as the FDP rules count it): called out before the standby begins or after it ended, they are off duty."""
    periods = sorted((r for r in history if r.kind == "STANDBY"), key=lambda r: r.duty_start)
    covering = next((r for r in periods if r.duty_start < report <= r.duty_end), None)
    nearest = min(periods, key=lambda r: abs((r.duty_start - report).total_seconds()), default=None)
    return Finding(
        rule="crew.standby_callout",
        clause=STANDBY_CLAUSE,
        status="legal" if covering else "illegal",
        binding=covering is None,
        subject=member.crew_id,
        message=(
            f"{member.name} is on standby {covering.duty_start:%d %b %H:%MZ}-{covering.duty_end:%d %b %H:%MZ}, "
            f"covering the report at {report:%H:%MZ}."
            if covering
            else f"{member.name} is not on standby at the report {report:%Y-%m-%d %H:%MZ}"
            + (
                f" (nearest standby {nearest.duty_start:%d %b %H:%MZ}-{nearest.duty_end:%d %b %H:%MZ})."
                if nearest
                else " (no standby rostered)."
            )
        ),
    )
