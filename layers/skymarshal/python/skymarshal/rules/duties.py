"""Duty records: one row per duty period, the unit the cumulative and rest rules count in.

CrewRoster rows (``CrewDuty``) are one per sector; ``group_crew_duties`` folds the rows sharing a
``duty_id`` into one ``DutyRecord`` (earliest report, latest release, summed block minutes).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, NonNegativeInt, model_validator

from ..models.common import UtcDatetime
from ..models.operational import CrewDuty

DutyKind = Literal["FLIGHT", "STANDBY", "HISTORY", "POSITIONING"]


class DutyRecord(BaseModel):
    """One duty period. ``fdp_end`` is on-blocks of the last sector (None for standby/positioning)."""

    model_config = ConfigDict(frozen=True)

    start: UtcDatetime  # report time
    end: UtcDatetime  # release
    kind: DutyKind = "FLIGHT"
    block_minutes: NonNegativeInt = 0
    fdp_end: UtcDatetime | None = None
    duty_id: str | None = None
    sectors: int = 0
    start_station: str | None = None
    end_station: str | None = None

    @model_validator(mode="after")
    def _in_order(self) -> DutyRecord:
        if self.end <= self.start:
            raise ValueError("a duty must end after it starts")
        if self.fdp_end is not None and not (self.start < self.fdp_end <= self.end):
            raise ValueError("fdp_end must fall within the duty")
        return self

    @property
    def duty_minutes(self) -> int:
        return int((self.end - self.start).total_seconds() // 60)

    @property
    def is_flight_duty(self) -> bool:
        return self.kind in ("FLIGHT", "HISTORY")

    @property
    def fdp_until(self) -> datetime:
        """End of the flight duty period: on-blocks of the last sector, or release when unknown."""
        return self.fdp_end or self.end


def group_crew_duties(rows: Iterable[CrewDuty]) -> list[DutyRecord]:
    """Fold CrewRoster rows into duty periods, in time order."""
    groups: dict[str, list[CrewDuty]] = defaultdict(list)
    for row in rows:
        groups[row.duty_id].append(row)
    records = []
    for duty_id, group in groups.items():
        group.sort(key=lambda r: (r.sector_departure or r.duty_start, r.duty_key))
        kinds = {r.kind for r in group}
        kind: DutyKind = next(k for k in ("FLIGHT", "HISTORY", "POSITIONING", "STANDBY") if k in kinds)
        fdp_ends = [r.fdp_end for r in group if r.fdp_end is not None]
        records.append(
            DutyRecord(
                duty_id=duty_id,
                start=min(r.duty_start for r in group),
                end=max(r.duty_end for r in group),
                fdp_end=max(fdp_ends) if fdp_ends else None,
                kind=kind,
                block_minutes=sum(r.block_minutes for r in group),
                sectors=max(max(r.sectors for r in group), len([r for r in group if r.flight_id])),
                start_station=group[0].start_station,
                end_station=group[-1].end_station,
            )
        )
    records.sort(key=lambda d: d.start)
    return records
