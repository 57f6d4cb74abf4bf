"""How long the same cause took before, from the airline's own record: a median and a high percentile.

Two records, each read by key or index only:
- MaintenanceWorkOrders, the tail's own (aircraft-registration-index): closed defects of the same ATA chapter,
  opened to closed — the time to fix that chapter on that aircraft;
- DisruptionHistory (disruption-type-index): past disruptions of the same coarse type that were waited out (the
  duty manager chose to delay and the flight then flew, on plan or late), their actual delay past the schedule —
  at the same station when it has enough cases, else across the network.
Below `MIN_CASES` a sample is no estimate (its 80th percentile would be one of its two largest values): the caller
falls back to the documented policy and says so — never a made-up number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from botocore.exceptions import ClientError

from ..data import queries as q
from ..data.access import DataHandle
from ..models.disruption import history_type
from ..models.history import DisruptionRecord
from ..models.operational import WorkOrder

MIN_CASES = 8  # fewer cases than this: no history estimate (the policy's, and the reason)
PERCENTILE = 80  # the upper bound, and the re-decision point: four in five past cases had cleared by then
LOWER_PERCENTILE = 20  # how soon it may clear: one in five past cases had cleared by then
WAITED_OUT = frozenset({"on_plan", "late"})  # a wait that ended in a flight: its delay is the cause's duration

HistoryBase = Literal["departure", "decision"]


@dataclass(frozen=True)
class HistoryEstimate:
    """A sample's median and percentile in minutes from `base`, its size and where it came from."""

    minutes: int
    upper: int
    lower: int
    cases: int
    percentile: int
    base: HistoryBase
    evidence: str


def nearest_rank(values: list[int], percentile: int) -> int:
    """The nearest-rank percentile of a non-empty sample (the smallest value with at least `percentile` % of the
    sample at or below it): always one of the observed values, never interpolated past them."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(percentile / 100 * len(ordered)) - 1)]


def summarise(minutes: list[int], base: HistoryBase, evidence: str) -> HistoryEstimate | None:
    """The median, the PERCENTILE and the LOWER_PERCENTILE of a sample, or None below MIN_CASES."""
    if len(minutes) < MIN_CASES:
        return None
    return HistoryEstimate(
        minutes=nearest_rank(minutes, 50),
        upper=nearest_rank(minutes, PERCENTILE),
        lower=nearest_rank(minutes, LOWER_PERCENTILE),
        cases=len(minutes),
        percentile=PERCENTILE,
        base=base,
        evidence=evidence,
    )


def waited_out(records: list[DisruptionRecord], station: str | None) -> tuple[list[int], str]:
    """The actual delays of the records that were waited out, at `station` (if given), and the sample's name."""
    kept = [r for r in records if r.chosen_action == "delay" and r.outcome in WAITED_OUT]
    if station is not None:
        kept = [r for r in kept if r.origin == station]
    return [r.actual_delay_minutes for r in kept], f"at {station}" if station else "across the network"


def from_disruption_history(
    handle: DataHandle, code: int, station: str | None, outlasted: int = 0
) -> tuple[HistoryEstimate | None, str]:
    """The same type's waited-out delays at the station, else across the network; with the sample's sizes (said
    when it falls short). `outlasted`: minutes past the schedule the cause has already lasted — only the cases that
    lasted longer say when it ends now (a re-decision). One Query on disruption-type-index."""
    kind = history_type(code)
    try:
        records = q.past_disruptions(handle, kind)
    except ClientError as exc:  # a deployment without the table: no history, said so
        if exc.response.get("Error", {}).get("Code") != "ResourceNotFoundException":
            raise
        return None, "DisruptionHistory: no table"
    tried = []
    for where in ([station] if station else []) + [None]:
        minutes, sample = waited_out(records, where)
        minutes = [m for m in minutes if m > outlasted]
        longer = f" longer than the {outlasted} min it has lasted" if outlasted else ""
        evidence = (
            f"DisruptionHistory: {len(minutes)} {kind} disruptions waited out {sample}{longer}, actual delay "
            f"median and p{PERCENTILE}"
        )
        found = summarise(minutes, "departure", evidence)
        if found is not None:
            return found, evidence
        tried.append(f"{len(minutes)} {sample}")
    return None, f"DisruptionHistory: too few {kind} disruptions waited out ({', '.join(tried)}; {MIN_CASES} needed)"


def fix_minutes(orders: list[WorkOrder], ata_chapter: str) -> list[int]:
    """Opened-to-closed minutes of the closed defects of one ATA chapter (rows with both times only)."""
    return [
        round((o.closed_at - o.opened_at).total_seconds() / 60)
        for o in orders
        if o.kind == "DEFECT" and o.status == "CLOSED" and o.ata_chapter == ata_chapter and o.closed_at is not None
        if o.closed_at > o.opened_at
    ]


def from_work_orders(handle: DataHandle, registration: str, ata_chapter: str) -> tuple[HistoryEstimate | None, str]:
    """The tail's own time to fix that ATA chapter (one Query on aircraft-registration-index)."""
    minutes = fix_minutes(q.work_orders_for_aircraft(handle, registration), ata_chapter)
    evidence = f"MaintenanceWorkOrders: {len(minutes)} closed ATA {ata_chapter} defects on {registration}"
    found = summarise(minutes, "decision", f"{evidence}, time to fix median and p{PERCENTILE}")
    return found, evidence if found else f"{evidence} ({MIN_CASES} needed)"
