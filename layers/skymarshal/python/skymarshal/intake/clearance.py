"""When the disruption's cause clears: an estimate with its source, on every disruption Validate resolves (issue 46).

In order, the first that gives one:
1. stated — the report's own estimate (clearance_words.py), placed in time against the flight: a delay past the
   scheduled departure, work from the decision time, a clock time in UTC or the station's local time; an airport or
   airspace window's end; a duty manager's corrected duration or window;
2. history — the airline's own record (clearance_history.py): the tail's time to fix the ATA chapter, else the same
   type of disruption waited out at the station or across the network, median and 80th percentile;
3. policy — the documented table (clearance_policy.py), each entry with its reason.
The estimate is put on the disruption as `clears` and among its facts as `clears` (stated, data or policy), so the
console's facts panel and `analyze --json` show it with its source.

A stated estimate that contradicts itself or the data is refused (ReportContradictsData, one line), never used: a
range whose end comes before its start, a CTOT or an estimated departure before the scheduled departure, a
release or reopening at a time already past when the report is made about a flight still on the ground.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from ..analysis.base import decision_time
from ..data.access import DataHandle
from ..models.common import iso_z
from ..models.disruption import (
    Clearance,
    ClearanceKind,
    ClearanceSource,
    Disruption,
    Fact,
    FactSource,
    ReportContradictsData,
)
from ..models.operational import Flight
from ..rules import what_if_policy
from . import clearance_history as history
from . import clearance_policy as policy
from .clearance_words import (
    AFTER_WINDOW,
    DELAY_CUES,
    NOT_AN_ESTIMATE_AFTER,
    EstimateBase,
    StatedEstimate,
    stated_estimates,
)
from .report import airport_zone

# A stated estimate with no upper bound of its own: a quarter of its length past it, at least a quarter of an hour
# (a release estimate slips: parts, a re-inspection, the certificate of release to service) — company policy.
STATED_MARGIN_SHARE = 0.25
STATED_MARGIN_MIN = 15
# A time of day up to this long before the report is read as already past ("released at 09:00" reported at 10:00),
# not as tomorrow's
PAST_GRACE = timedelta(hours=3)
WORK_KINDS = frozenset({"aircraft_release", "crew_available"})  # a duration is work from the decision
# The airline's own record is a fact found in the data
FACT_SOURCE: dict[ClearanceSource, FactSource] = {"stated": "stated", "history": "data", "policy": "policy"}
ON_THE_GROUND = frozenset({"SCHEDULED", "DELAYED"})
_MVT_DELAY = re.compile(r"\b(?:DL|ED)\s*\d", re.I)  # an MVT's delay element or estimated departure: past the schedule


@dataclass(frozen=True)
class Placed:
    """A stated estimate placed in time: its expected time, its own upper bound (a range's end) and its words."""

    expected: datetime
    upper: datetime | None
    estimate: StatedEstimate


def with_clearance(
    disruption: Disruption, report: str, handle: DataHandle, now: datetime, flight: Flight | None
) -> Disruption:
    """The disruption with `clears` and its `clears` fact. Raises ReportContradictsData for a stated estimate that
    contradicts itself or the data."""
    clears, fact = estimate(disruption, report, handle, now, flight)
    return disruption.model_copy(update={"clears": clears, "facts": [*disruption.facts, fact]})


def estimate(
    disruption: Disruption, report: str, handle: DataHandle, now: datetime, flight: Flight | None
) -> tuple[Clearance, Fact]:
    """The clearance and the fact that shows it: stated, else history, else policy (module docstring)."""
    kind = policy.clearance_kind(disruption)
    if flight is None or (kind == "station_reopens" and disruption.scope.kind in ("airport", "airspace")):
        return _window_end(disruption, kind)
    stated = _stated(disruption, report, flight, now, kind)
    if stated is not None:
        return stated
    return _history_or_policy(disruption, report, handle, now, flight, kind)


def _fact(clears: Clearance, evidence: str, span: tuple[int, int] | None = None) -> Fact:
    source = FACT_SOURCE[clears.source]
    sample = f" ({clears.cases} cases, p{clears.percentile})" if clears.source == "history" else ""
    return Fact(
        name="clears",
        value=f"{clears.kind} {iso_z(clears.expected)}, latest {iso_z(clears.latest)}{sample}",
        source=source,
        evidence=evidence,
        span=span,
    )


def _window_end(disruption: Disruption, kind: ClearanceKind) -> tuple[Clearance, Fact]:
    """An airport or airspace window: the station reopens at its end, the report's (or a correction's) own bound."""
    window = disruption.window
    assert window is not None  # an airport or airspace disruption has its window (models/disruption.py)
    said = next((f for f in disruption.facts if f.name == "window" and f.source == "stated"), None)
    corrected = next((c for c in disruption.corrections if c.key == "window"), None)
    evidence = (
        f"corrected window={corrected.value} by {corrected.by or 'duty manager'}"
        if corrected
        else str(said.evidence)
        if said
        else f"window {iso_z(window.start)}-{iso_z(window.end)}"
    )
    clears = Clearance(
        kind=kind,
        expected=window.end,
        latest=window.end,
        source="stated" if said or corrected else "policy",
        evidence=f"{evidence}: the window's end",
    )
    return clears, _fact(clears, evidence, said.span if said and not corrected else None)


def place_clock(hour: int, minute: int, zone: ZoneInfo | None, after: datetime) -> datetime:
    """The first time of day `hour:minute` (in `zone`, else UTC) after `after`, in UTC."""
    tz = zone or UTC
    local = after.astimezone(tz)
    candidates = [
        datetime(d.year, d.month, d.day, hour, minute, tzinfo=tz).astimezone(UTC)
        for d in (local.date() - timedelta(days=1), local.date(), local.date() + timedelta(days=1))
    ]
    return next(t for t in candidates if t > after)


def clock_from(flight: Flight, now: datetime, departure: bool = False) -> datetime:
    """Where a stated time of day starts counting. A departure time (CTOT, ETD) is the flight's: the first after the
    half day before its scheduled departure (earlier than the schedule is then a contradiction). Any other time
    counts from a little before the decision (the report's time when it is made about the flight, else an hour
    before departure, analysis/base.py): one up to PAST_GRACE before it is a time already past, not tomorrow's —
    unless the flight departs on a later local day than the decision's (at its origin): a report about tomorrow's
    flight speaks of what is still ahead of it, so a time already past today is tomorrow's."""
    if departure:
        return flight.scheduled_departure - timedelta(hours=12)
    decided = decision_time(flight, now)
    zone = airport_zone(flight.origin) or UTC
    if flight.scheduled_departure.astimezone(zone).date() > decided.astimezone(zone).date():
        return decided
    return decided - PAST_GRACE


def _place(e: StatedEstimate, flight: Flight, at: datetime, station: str, now: datetime, kind: ClearanceKind) -> Placed:
    """One stated estimate in time. Raises ReportContradictsData for a range that ends before it starts."""
    if e.clock is not None:
        zone = airport_zone(station) if e.zone == "local" else None
        return Placed(place_clock(*e.clock, zone, clock_from(flight, now, e.departure)), None, e)
    assert e.minutes is not None
    if e.upper_minutes is not None and e.upper_minutes < e.minutes:
        raise ReportContradictsData(f'"{e.words}": the estimate ends before it starts; say it again')
    # Work counts from the decision only for an aircraft or a crew member, as the what-if overlay's work order and
    # call-out do; any other cause's duration holds the flight past its schedule (analysis/what_if.py `_hold`)
    past_schedule = e.base == "delay" or kind not in WORK_KINDS
    base = flight.scheduled_departure if past_schedule else at
    upper = base + timedelta(minutes=e.upper_minutes) if e.upper_minutes else None
    return Placed(base + timedelta(minutes=e.minutes), upper, e)


def check_placed(p: Placed, flight: Flight, now: datetime) -> None:
    """A stated time the data contradicts: a departure estimate (CTOT, ETD) before the schedule; a release already
    past when the report is made about a flight still on the ground. Raises ReportContradictsData."""
    words, std = p.estimate.words, flight.scheduled_departure
    unzoned = " (read as UTC: no zone stated)" if p.estimate.clock and p.estimate.zone == "unstated" else ""
    if p.estimate.departure and p.expected < std:
        raise ReportContradictsData(
            f'"{words}"{unzoned} is before {flight.flight_number}\'s scheduled departure {iso_z(std)}: a slot or an '
            "estimated departure cannot be earlier; say it again"
        )
    reported_near = std - timedelta(days=1) <= now <= flight.arrival
    if p.estimate.clock and reported_near and flight.status in ON_THE_GROUND and p.expected < now:
        raise ReportContradictsData(
            f'"{words}"{unzoned} is {iso_z(p.expected)}, before the report ({iso_z(now)}), and '
            f"{flight.flight_number} is still on the ground: say when it will clear"
        )


def _corrected(disruption: Disruption, kind: ClearanceKind) -> StatedEstimate | None:
    """A duty manager's corrected duration, as a stated estimate (a hold past the schedule, or work from now)."""
    corrected = next((c for c in disruption.corrections if c.key == "duration"), None)
    if corrected is None or disruption.severity_minutes is None:
        return None
    base: EstimateBase = "work" if kind in ("aircraft_release", "crew_available") else "delay"
    words = f"corrected duration={corrected.value} by {corrected.by or 'duty manager'}"
    return StatedEstimate(base, words, (0, 0), minutes=disruption.severity_minutes)


def _from_facts(disruption: Disruption, kind: ClearanceKind, report: str) -> list[tuple[StatedEstimate, bool]]:
    """The stated duration fact (an MVT's DL or ED, a reading the words above did not make), as an estimate —
    unless the report's words right after it time something else ("called in sick two hours before departure"),
    which the words above already left out."""
    fact = next((f for f in disruption.facts if f.name == "duration_minutes" and f.source == "stated"), None)
    if fact is None or not isinstance(fact.value, int) or fact.value <= 0:
        return []
    if fact.span is not None and NOT_AN_ESTIMATE_AFTER.match(report[fact.span[1] : fact.span[1] + AFTER_WINDOW]):
        return []
    words = str(fact.evidence)
    past = _MVT_DELAY.search(words) or DELAY_CUES.search(words) or kind not in ("aircraft_release", "crew_available")
    base: EstimateBase = "delay" if past else "work"
    return [(StatedEstimate(base, words, fact.span or (0, 0), minutes=fact.value), fact.span is not None)]


def _stated(
    disruption: Disruption, report: str, flight: Flight, now: datetime, kind: ClearanceKind
) -> tuple[Clearance, Fact] | None:
    """The report's own estimate, the latest of those it states (a fact only makes things worse), or None."""
    if kind == "station_reopens" and disruption.window is not None:
        return _window_end(disruption, kind)
    at = decision_time(flight, now)
    station = disruption.scope.airport if kind == "station_reopens" and disruption.scope.airport else flight.origin
    corrected = _corrected(disruption, kind)
    if corrected is not None:
        read: list[tuple[StatedEstimate, bool]] = [(corrected, False)]
    else:
        read = [(e, True) for e in stated_estimates(report)] or _from_facts(disruption, kind, report)
    if not read:
        return None
    placed = []
    for e, quoted in read:
        p = _place(e, flight, at, station, now, kind)
        check_placed(p, flight, now)
        placed.append((p, quoted))
    last, quoted = max(placed, key=lambda pq: pq[0].expected)
    margin = max(STATED_MARGIN_MIN, round(STATED_MARGIN_SHARE * max(0.0, (last.expected - at).total_seconds() / 60)))
    latest = max(p.upper or p.expected + timedelta(minutes=margin) for p, _ in placed)
    bound = "its own upper end" if last.upper else f"+{margin} min margin ({STATED_MARGIN_SHARE:.0%}, policy)"
    others = f"; {len(placed) - 1} other estimate(s) stated, the latest kept" if len(placed) > 1 else ""
    clears = Clearance(
        kind=kind,
        expected=last.expected,
        latest=max(latest, last.expected),
        source="stated",
        departs=last.estimate.departure or last.estimate.base == "delay",
        evidence=f'"{last.estimate.words}" ({_base_words(last.estimate, flight, at, kind)}); latest {bound}{others}'[
            :400
        ],
    )
    return clears, _fact(clears, last.estimate.words, last.estimate.span if quoted else None)


def _base_words(e: StatedEstimate, flight: Flight, at: datetime, kind: ClearanceKind) -> str:
    if e.clock is not None:
        return {"utc": "UTC", "local": "local time", "unstated": "read as UTC, no zone stated"}[e.zone]
    if e.base == "delay" or kind not in WORK_KINDS:
        return f"past the scheduled departure {iso_z(flight.scheduled_departure)}"
    return f"from the decision at {iso_z(at)}"


def _history_or_policy(
    disruption: Disruption, report: str, handle: DataHandle, now: datetime, flight: Flight, kind: ClearanceKind
) -> tuple[Clearance, Fact]:
    """The airline's record when it has enough cases, else the policy's entry, saying why the record fell short."""
    at = decision_time(flight, now)
    words = " ".join([disruption.cause, disruption.remarks, report])
    found: history.HistoryEstimate | None = None
    short: list[str] = []
    if kind == "aircraft_release":
        chapter = what_if_policy.defect_estimate(words).ata_chapter
        found, said = history.from_work_orders(handle, flight.aircraft_registration, chapter)
        short += [] if found else [said]
    outlasted = max(0, int((at - flight.scheduled_departure).total_seconds() // 60))  # held past its schedule
    if found is None:
        found, said = history.from_disruption_history(handle, disruption.iata_delay_code, flight.origin, outlasted)
        short += [] if found else [said]
    if found is not None:
        base = flight.scheduled_departure if found.base == "departure" else at
        clears = Clearance(
            kind=kind,
            expected=base + timedelta(minutes=found.minutes),
            latest=base + timedelta(minutes=found.upper),
            earliest=base + timedelta(minutes=found.lower),
            source="history",
            evidence=found.evidence[:400],
            cases=found.cases,
            percentile=found.percentile,
        )
        return clears, _fact(clears, found.evidence)
    entry, start = _policy_entry(disruption, handle, flight, kind, words)
    base = start or (flight.scheduled_departure if entry.base == "departure" else at)
    outlived = ""
    if base + timedelta(minutes=entry.minutes) <= at:  # the cause has outlasted the entry: as long again from now
        base, outlived = at, f"; outlasted it by {iso_z(at)}, counted again from then"
    evidence = f"{policy.POLICY}: {entry.reason}{outlived}; {'; '.join(short)}"[:400]
    clears = Clearance(
        kind=kind,
        expected=base + timedelta(minutes=entry.minutes),
        latest=base + timedelta(minutes=entry.minutes + entry.margin),
        source="policy",
        evidence=evidence,
    )
    return clears, _fact(clears, evidence)


def _policy_entry(
    disruption: Disruption, handle: DataHandle, flight: Flight, kind: ClearanceKind, words: str
) -> tuple[policy.PolicyEntry, datetime | None]:
    """The policy's entry for the cause, and where it starts when not from its base (destination weather: from
    the flight's arrival, as the what-if overlay plans it)."""
    code = disruption.iata_delay_code
    if kind == "aircraft_release":
        return policy.defect_entry(words), None
    if kind == "crew_available":
        if any(f.name == "crew_fatigue" for f in disruption.facts):
            return policy.CREW_FATIGUE, None
        from ..data import queries as q  # a standby rostered at the station that day: it is a crew base

        at_base = bool(q.standby_crew(handle, flight.origin, flight.flight_date))
        return (policy.CREW_AT_BASE if at_base else policy.CREW_AWAY), None
    if kind == "ctot":
        return policy.slot_entry(code), None
    if kind == "station_reopens":
        if code in (72, 73):
            return policy.WEATHER, flight.arrival - timedelta(minutes=30)
        return (policy.WEATHER if code != 87 else policy.CLOSURE), None
    return policy.release_entry(code), None
