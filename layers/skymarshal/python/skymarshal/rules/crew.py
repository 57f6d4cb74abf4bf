"""Crew legality entry points, regime-agnostic (EASA by default, FAA Part 117 selectable in ``OperatorRules``).

``evaluate_duty(member, history, proposed)`` returns every finding for one crew member on one proposed duty:
availability, type qualification, recency (pilots), roster conflicts, maximum FDP (with margin), cumulative
limits, rest before the duty and rest before the next rostered duty. ``evaluate_delay`` is the same duty
with the last on-blocks and release moved by N minutes (report unchanged, so the FDP grows by N);
``latest_legal_delay`` the largest such delay that stays legal; ``evaluate_swap_candidate`` a reserve
reporting at a given time for the same duty.

Reference time is the local time at the member's base (the crew are taken to be acclimatised there
unless the duty says otherwise). The FAA regime applies Part 117 to every crew member; Part 117 covers
flightcrew only, so cabin crew are held to the pilot limits as a conservative stand-in (verify).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeInt, PositiveInt, model_validator

from ..models.airports import airport
from ..models.common import UtcDatetime
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, status_for_margin
from ..models.operational import CrewDuty, CrewMember
from . import ftl_easa, ftl_easa_limits, ftl_faa
from ._clock import fmt_hm, local_time, minutes_between
from .crew_qualification import (
    availability_finding,
    recency_finding,
    standby_callout_finding,
    type_qualification_finding,
)
from .duties import DutyRecord, group_crew_duties

# CS FTL.1.225(b)(7)/(8): called from standby (other than airport standby) after this long, the maximum FDP is
# reduced by the standby time beyond it (6 h; 8 h with in-flight rest). The (b)(9) night exemption
# (23:00–07:00 not counted) is not applied: more reduction, the conservative side (verify).
STANDBY_FDP_REDUCTION_AFTER = {"unaugmented": 6 * 60, "augmented": 8 * 60}


class OperatorRules(BaseModel):
    """Which regime applies and the operator's settings for the (verify) numbers."""

    model_config = ConfigDict(frozen=True)

    regime: Literal["EASA", "FAA"] = "EASA"
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES
    easa: ftl_easa.EasaFtlConfig = ftl_easa.DEFAULT_EASA
    duty_credit: dict[str, float] = Field(default_factory=lambda: dict(ftl_easa_limits.DUTY_CREDIT))
    standby_reduction_after_minutes: dict[str, int] = Field(default_factory=lambda: dict(STANDBY_FDP_REDUCTION_AFTER))
    post_flight_minutes: int = 30  # release after last on-blocks when the duty does not say (operator-defined)
    recency_days: int = 90
    recency_required: int = 3


class ProposedDuty(BaseModel):
    """A duty to check: report, planned on-blocks of the last sector, and what is flown."""

    model_config = ConfigDict(frozen=True)

    report: UtcDatetime
    fdp_end: UtcDatetime  # planned on-blocks of the last sector
    release: UtcDatetime | None = None  # None: fdp_end + OperatorRules.post_flight_minutes
    sectors: PositiveInt
    aircraft_type: str
    pilots_on_board: PositiveInt = 2
    rest_facility_class: Literal[1, 2, 3] | None = None  # needed for augmented limits (CS FTL.1.205(c))
    reference_tz: str | None = None  # IANA zone of the reference time; None: the member's base
    acclimatisation: ftl_easa.Acclimatisation = "acclimatised"
    at_home_base: bool | None = None  # rest before this FDP taken at home base; None: derived, else assumed home
    start_station: str | None = None
    end_station: str | None = None
    block_minutes: NonNegativeInt | None = None  # planned flight time; None: the FDP length (upper bound)
    extension: ftl_easa.PlannedExtension | None = None  # ORO.FTL.205(d), only when planned
    commanders_discretion_minutes: NonNegativeInt = 0  # ORO.FTL.205(f), only when exercised
    duty_id: str | None = None  # history rows with this duty_id are this duty and are replaced by it
    label: str | None = None  # e.g. "EY123/EY124" for messages

    @model_validator(mode="after")
    def _in_order(self) -> ProposedDuty:
        if self.fdp_end <= self.report:
            raise ValueError("fdp_end must be after report")
        if self.release is not None and self.release < self.fdp_end:
            raise ValueError("release cannot be before fdp_end")
        return self

    def delayed(self, minutes: int) -> ProposedDuty:
        """The same duty with on-blocks and release ``minutes`` later; report time unchanged."""
        shift = timedelta(minutes=minutes)
        return self.model_copy(
            update={"fdp_end": self.fdp_end + shift, "release": None if self.release is None else self.release + shift}
        )


def _record(proposed: ProposedDuty, rules: OperatorRules) -> DutyRecord:
    release = proposed.release or proposed.fdp_end + timedelta(minutes=rules.post_flight_minutes)
    fdp = minutes_between(proposed.report, proposed.fdp_end)
    return DutyRecord(
        start=proposed.report,
        end=release,
        fdp_end=proposed.fdp_end,
        kind="FLIGHT",
        block_minutes=fdp if proposed.block_minutes is None else proposed.block_minutes,
        duty_id=proposed.duty_id,
        sectors=proposed.sectors,
        start_station=proposed.start_station,
        end_station=proposed.end_station,
    )


def evaluate_duty(
    member: CrewMember, history: Sequence[CrewDuty], proposed: ProposedDuty, rules: OperatorRules = OperatorRules()
) -> list[Finding]:
    """Every finding for ``member`` flying ``proposed``, given their roster rows (past and future)."""
    subject = member.crew_id
    duty = _record(proposed, rules)
    records = [r for r in group_crew_duties(history) if proposed.duty_id is None or r.duty_id != proposed.duty_id]
    callout = next((r for r in records if r.kind == "STANDBY" and r.start < duty.start <= r.end), None)
    others = [r for r in records if r is not callout]
    if callout is not None and callout.start < duty.start:  # standby up to the report still counts as duty
        others.append(callout.model_copy(update={"end": duty.start}))

    findings = [availability_finding(member), type_qualification_finding(member, proposed.aircraft_type, rules.regime)]
    recency = recency_finding(
        member,
        proposed.aircraft_type,
        duty.start,
        duty.fdp_until,
        rules.regime,
        days=rules.recency_days,
        required=rules.recency_required,
    )
    if recency is not None:
        findings.append(recency)
    findings.append(_conflict_finding(subject, duty, others))
    findings.append(max_fdp_finding(member, proposed, rules, callout))
    tz = proposed.reference_tz or airport(member.base).tz
    if rules.regime == "EASA":
        findings += ftl_easa_limits.cumulative_findings(
            others,
            duty,
            subject=subject,
            at_risk_minutes=rules.at_risk_minutes,
            calendar_tz=tz,
            duty_credit=rules.duty_credit,
        )
    else:
        findings.append(_faa_flight_time_finding(subject, proposed, duty, tz, rules))
        findings += ftl_faa.cumulative_findings(others, duty, subject=subject, at_risk_minutes=rules.at_risk_minutes)
        findings.append(ftl_faa.weekly_rest_finding(others, duty, subject=subject))
    findings += _rest_findings(member, proposed, duty, records, callout, rules)
    return findings


def _conflict_finding(subject: str, duty: DutyRecord, candidates: list[DutyRecord]) -> Finding:
    clashes = [r for r in candidates if r.start < duty.end and r.end > duty.start and r.kind != "STANDBY"]
    ok = not clashes
    return Finding(
        rule="crew.roster_conflict",
        clause="Roster: one duty at a time",
        status="legal" if ok else "illegal",
        binding=not ok,
        subject=subject,
        message=(
            "No other duty overlaps this one."
            if ok
            else f"Already rostered on {len(clashes)} overlapping duty(ies): "
            + ", ".join(f"{r.duty_id or r.kind} {r.start:%d %H:%M}-{r.end:%H:%M}Z" for r in clashes)
            + "."
        ),
        details={"conflicts": [r.duty_id for r in clashes]},
    )


def max_fdp_finding(
    member: CrewMember,
    proposed: ProposedDuty,
    rules: OperatorRules = OperatorRules(),
    callout: DutyRecord | None = None,
) -> Finding:
    """The planned FDP (report → last on-blocks) against the regime's maximum at the local reference time."""
    tz = proposed.reference_tz or airport(member.base).tz
    start = local_time(proposed.report, tz)
    actual = minutes_between(proposed.report, proposed.fdp_end)
    extra = proposed.pilots_on_board - 2
    notes: list[str] = []
    if rules.regime == "EASA":
        augmentation = None
        if extra > 0 and proposed.rest_facility_class is not None:
            augmentation = (min(extra, 2), proposed.rest_facility_class)
        elif extra > 0:
            notes.append("augmented crew without a rest facility class: unaugmented limits applied")
        limit = ftl_easa.max_fdp_minutes(
            start,
            proposed.sectors,
            proposed.acclimatisation,
            augmentation,
            proposed.extension,
            proposed.commanders_discretion_minutes,
            rules.easa,
        )
        allowed, clause, notes = limit.minutes, limit.clause, notes + list(limit.notes)
        details = {
            "band": limit.band,
            "sectors_column": limit.sectors_column,
            "table_minutes": limit.table_minutes,
            "extension_minutes": limit.extension_minutes,
            "discretion_minutes": limit.discretion_minutes,
        }
        if callout is not None:
            standby = minutes_between(callout.start, proposed.report)
            after = rules.standby_reduction_after_minutes["augmented" if augmentation else "unaugmented"]
            reduction = max(0, standby - after)
            if reduction:
                allowed -= reduction
                clause += " + CS FTL.1.225(b)(7)"
                notes.append(f"called from standby after {fmt_hm(standby)} h: FDP reduced by {reduction} min")
            details["standby_minutes"] = standby
    else:  # 117.21 reserve rules are not encoded: a call-out from reserve is checked as a fresh FDP
        faa = ftl_faa.max_fdp_minutes(start, proposed.sectors, proposed.acclimatisation == "acclimatised")
        allowed, clause, notes = faa.minutes, faa.clause, notes + list(faa.notes)
        if extra > 0:
            notes.append("augmented crew: Table C is not encoded, Table B applied (conservative)")
        details = {"band": faa.band, "segments_column": faa.segments_column}
    margin = allowed - actual
    status = status_for_margin(margin, rules.at_risk_minutes)
    return Finding(
        rule="crew.max_fdp",
        clause=clause,
        status=status,
        binding=status == "illegal",
        subject=member.crew_id,
        margin_minutes=margin,
        limit=allowed,
        actual=actual,
        unit="minutes",
        message=(
            f"FDP {proposed.label + ' ' if proposed.label else ''}of {fmt_hm(actual)} h reporting "
            f"{start:%H:%M} local with {proposed.sectors} sector(s) is "
            f"{'within' if margin >= 0 else 'over'} the {fmt_hm(allowed)} h maximum (margin {fmt_hm(margin)})."
        ),
        details={**details, "reference_tz": tz, "reference_start": f"{start:%H:%M}", "notes": notes},
    )


def _faa_flight_time_finding(
    subject: str, proposed: ProposedDuty, duty: DutyRecord, tz: str, rules: OperatorRules
) -> Finding:
    limit = ftl_faa.max_flight_time_minutes(local_time(proposed.report, tz))
    margin = limit - duty.block_minutes
    status = status_for_margin(margin, rules.at_risk_minutes)
    return Finding(
        rule="crew.max_flight_time",
        clause="14 CFR 117.11(a) Table A",
        status=status,
        binding=status == "illegal",
        subject=subject,
        margin_minutes=margin,
        limit=limit,
        actual=duty.block_minutes,
        unit="minutes",
        message=(
            f"Flight time of {fmt_hm(duty.block_minutes)} h is {'within' if margin >= 0 else 'over'} "
            f"the {fmt_hm(limit)} h Table A maximum."
        ),
    )


def _at_home(member: CrewMember, station: str | None, fallback: DutyRecord | None) -> bool:
    """Rest location is home base when the station (or the previous duty's end) is the base; unknown → home
    (the longer ORO.FTL.235 minimum, the conservative side)."""
    if station is not None:
        return station == member.base
    if fallback is not None and fallback.end_station is not None:
        return fallback.end_station == member.base
    return True


def _rest_findings(
    member: CrewMember,
    proposed: ProposedDuty,
    duty: DutyRecord,
    records: list[DutyRecord],
    callout: DutyRecord | None,
    rules: OperatorRules,
) -> list[Finding]:
    subject, risk = member.crew_id, rules.at_risk_minutes
    rest_ends = callout.start if callout is not None else duty.start  # standby is duty: rest ends where it starts
    before = [r for r in records if r is not callout and r.end <= rest_ends]
    previous = max(before, key=lambda r: r.end, default=None)
    after = [r for r in records if r is not callout and r.is_flight_duty and r.start > duty.start]
    following = min(after, key=lambda r: r.start, default=None)
    if rules.regime == "EASA":
        home = (
            proposed.at_home_base
            if proposed.at_home_base is not None
            else _at_home(member, proposed.start_station, previous)
        )
        out = [
            ftl_easa_limits.rest_finding(previous, rest_ends, at_home_base=home, subject=subject, at_risk_minutes=risk)
        ]
        if following is not None:
            home_after = _at_home(member, proposed.end_station, None)
            out.append(
                ftl_easa_limits.rest_finding(
                    duty,
                    following.start,
                    at_home_base=home_after,
                    subject=subject,
                    at_risk_minutes=risk,
                    rule="crew.rest_after",
                )
            )
        return out
    out = [ftl_faa.rest_finding(previous, rest_ends, subject=subject, at_risk_minutes=risk)]
    if following is not None and following.is_flight_duty:
        out.append(
            ftl_faa.rest_finding(duty, following.start, subject=subject, at_risk_minutes=risk, rule="crew.rest_after")
        )
    return out


def is_legal(findings: Sequence[Finding]) -> bool:
    return all(f.status != "illegal" for f in findings)


def evaluate_delay(
    member: CrewMember,
    history: Sequence[CrewDuty],
    proposed: ProposedDuty,
    delay_minutes: int,
    rules: OperatorRules = OperatorRules(),
) -> list[Finding]:
    """The duty delayed by ``delay_minutes``: report unchanged, so the FDP and release grow by the delay."""
    if delay_minutes < 0:
        raise ValueError("a delay is not negative")
    return evaluate_duty(member, history, proposed.delayed(delay_minutes), rules)


def latest_legal_delay(
    member: CrewMember,
    history: Sequence[CrewDuty],
    proposed: ProposedDuty,
    rules: OperatorRules = OperatorRules(),
    horizon_minutes: int = 24 * 60,
) -> int | None:
    """Largest delay (minutes, up to ``horizon_minutes``) with no illegal finding; None if illegal undelayed.

    Legality can only be lost as the delay grows (every limit counted here grows with the FDP), so a
    bisection is exact.
    """
    if not is_legal(evaluate_delay(member, history, proposed, 0, rules)):
        return None
    low, high = 0, horizon_minutes
    if is_legal(evaluate_delay(member, history, proposed, high, rules)):
        return high
    while high - low > 1:
        mid = (low + high) // 2
        if is_legal(evaluate_delay(member, history, proposed, mid, rules)):
            low = mid
        else:
            high = mid
    return low


def evaluate_swap_candidate(
    member: CrewMember,
    history: Sequence[CrewDuty],
    proposed: ProposedDuty,
    report: datetime,
    rules: OperatorRules = OperatorRules(),
    acclimatisation: ftl_easa.Acclimatisation = "acclimatised",
) -> list[Finding]:
    """A reserve taking ``proposed`` and reporting at ``report``: FDP counted from their own report, reference
    time and home base from their own base. A standby row covering the report is the call-out standby."""
    swapped = ProposedDuty.model_validate(
        {
            **proposed.model_dump(),
            "report": report,
            "duty_id": None,
            "reference_tz": None,
            "at_home_base": None,
            "acclimatisation": acclimatisation,
        }
    )
    return [standby_callout_finding(member, history, report), *evaluate_duty(member, history, swapped, rules)]
