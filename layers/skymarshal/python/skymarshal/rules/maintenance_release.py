"""Estimated release to service of a grounded aircraft, from its open work orders and the maintenance roster.

- ``grounding_work_orders``  the orders that keep the aircraft on the ground at an instant: open AOG defects
                             (Part-M M.A.403(a)) and MEL items past their rectification interval — exactly the
                             illegal findings of ``rules.mel.aircraft_airworthiness``.
- ``schedule_work_order``    one task on the roster: when it can start and when its labour is done.
- ``estimate_release``       every grounding task in turn, then the certificate of release to service
                             (Part-145.A.50, signed by certifying staff holding the authorisation, Part-145.A.35).
                             Returns the release time, or None with a typed blocker.
The tail swap check lives in ``rules.tail_swap`` and is re-exported here.

Scheduling assumption (``MaintenanceConfig``; company policy, verify with the maintenance control centre):
- ``estimated_labour_hours`` are engineer-hours. A team of up to ``team_size`` engineers holding the order's
  ``required_authorisation`` works the task; with n such engineers on shift at the order's station the work
  progresses at min(n, team_size) engineer-hours per hour. Default team of ONE: elapsed time = labour hours
  (the conservative, latest estimate).
- A task starts at the latest of: ``at`` (now), the order's opening, ``parts_available_at``, the end of the
  previous task. It pauses while no authorised engineer is on shift at the station and resumes on the next
  such shift (handover across consecutive shifts). Shifts are [start, end).
- The grounding tasks of one aircraft are worked one after the other (one team per aircraft), earliest
  parts first. A MEL item that runs out while the work goes on is added to the work.
- ``parts_available_at`` missing on a grounding order: parts unknown, no estimate (unless
  ``assume_parts_on_hand_when_unknown``). ``estimated_labour_hours`` of 0: labour unknown, no estimate.
- Release = end of the last task + ``release_overhead_minutes`` (default 0: checks and CRS paperwork are
  taken to be inside the labour estimate).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveInt

from ..models.common import UtcDatetime
from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, status_for_margin
from ..models.operational import MaintenanceEngineer, MaintenanceShift, WorkOrder
from ._clock import as_utc, fmt_hm, minutes_between
from ._reasons import Reason
from .mel import aircraft_airworthiness
from .tail_swap import tail_swap_eligibility  # noqa: F401  (re-export: item 1 of the maintenance rules)

RELEASE_CLAUSE = "Part-145.A.50 certificate of release to service (certifying staff, Part-145.A.35)"
BlockerCode = Literal[
    "PARTS_UNKNOWN", "LABOUR_UNKNOWN", "AUTHORISATION_UNKNOWN", "NO_AUTHORISED_ENGINEER", "HORIZON_TOO_SHORT"
]


class MaintenanceConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    team_size: PositiveInt = 1  # authorised engineers on one task at once (company policy, verify)
    horizon_hours: PositiveInt = 72  # how far ahead the roster is searched
    release_overhead_minutes: NonNegativeInt = 0  # checks/CRS beyond the labour estimate (company policy, verify)
    assume_parts_on_hand_when_unknown: bool = False
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES


DEFAULT_MAINTENANCE = MaintenanceConfig()


class ReleaseBlocker(Reason):
    code: BlockerCode
    work_order_id: str


class WorkSegment(BaseModel):
    model_config = ConfigDict(frozen=True)

    start: UtcDatetime
    end: UtcDatetime
    staff_ids: tuple[str, ...]  # the authorised engineers working in this stretch
    engineer_hours: float


class TaskSchedule(BaseModel):
    model_config = ConfigDict(frozen=True)

    work_order_id: str
    station: str
    required_authorisation: str
    labour_hours: float
    earliest_start: UtcDatetime  # parts, opening, now and the previous task allow work from here
    start: UtcDatetime  # first minute an authorised engineer is on it
    end: UtcDatetime
    segments: tuple[WorkSegment, ...]


class ReleaseEstimate(BaseModel):
    model_config = ConfigDict(frozen=True)

    registration: str
    at: UtcDatetime
    grounded: bool  # grounded at ``at``
    release_at: UtcDatetime | None  # None: no estimate (see blocker); ``at`` when not grounded
    tasks: tuple[TaskSchedule, ...]
    blocker: ReleaseBlocker | None = None
    findings: tuple[Finding, ...]


def grounding_work_orders(
    work_orders: Sequence[WorkOrder], at: datetime, *, registration: str | None = None, tz: str = "UTC"
) -> list[WorkOrder]:
    """The orders behind the illegal findings of ``aircraft_airworthiness`` (AOG defect, expired MEL item)."""
    result = aircraft_airworthiness(work_orders, at, registration=registration, tz=tz)
    ids = {f.details.get("work_order_id") for f in result.findings if f.status == "illegal"}
    return [o for o in work_orders if o.work_order_id in ids]


def authorised_shifts(
    order: WorkOrder, engineers: Sequence[MaintenanceEngineer], shifts: Sequence[MaintenanceShift]
) -> list[MaintenanceShift]:
    """Shifts at the order's station of engineers holding its ``required_authorisation`` (Part-145.A.35)."""
    authorised = {e.staff_id for e in engineers if order.required_authorisation in e.authorisations}
    return [s for s in shifts if s.staff_id in authorised and s.station == order.station]


def schedule_work_order(
    order: WorkOrder,
    engineers: Sequence[MaintenanceEngineer],
    shifts: Sequence[MaintenanceShift],
    not_before: datetime,
    *,
    config: MaintenanceConfig = DEFAULT_MAINTENANCE,
) -> TaskSchedule | ReleaseBlocker:
    """When the order's labour is done on the roster (see the module's scheduling assumption), or why not."""
    not_before = as_utc(not_before)
    wo = order.work_order_id
    if order.parts_available_at is None and not config.assume_parts_on_hand_when_unknown:
        return ReleaseBlocker(
            code="PARTS_UNKNOWN",
            work_order_id=wo,
            message=f"{wo}: no parts availability time on the work order; release cannot be estimated.",
        )
    if order.estimated_labour_hours <= 0:
        return ReleaseBlocker(
            code="LABOUR_UNKNOWN",
            work_order_id=wo,
            message=f"{wo}: no labour estimate on the work order; release cannot be estimated.",
        )
    if not order.required_authorisation:
        return ReleaseBlocker(
            code="AUTHORISATION_UNKNOWN",
            work_order_id=wo,
            message=f"{wo}: the work order names no required authorisation (Part-145.A.35).",
        )
    earliest = max(not_before, order.opened_at, order.parts_available_at or not_before)
    horizon_end = not_before + timedelta(hours=config.horizon_hours)
    rostered = [
        s for s in authorised_shifts(order, engineers, shifts) if s.shift_end > earliest and s.shift_start < horizon_end
    ]
    if not rostered:
        return ReleaseBlocker(
            code="NO_AUTHORISED_ENGINEER",
            work_order_id=wo,
            message=(
                f"{wo}: no engineer holding {order.required_authorisation} is rostered at {order.station} "
                f"between {earliest:%Y-%m-%d %H:%M}Z and {horizon_end:%Y-%m-%d %H:%M}Z."
            ),
        )
    points = sorted(
        {earliest, horizon_end}
        | {t for s in rostered for t in (s.shift_start, s.shift_end) if earliest < t < horizon_end}
    )
    remaining = order.estimated_labour_hours * 60.0  # engineer-minutes
    segments: list[WorkSegment] = []
    for t0, t1 in itertools.pairwise(points):
        on = sorted({s.staff_id for s in rostered if s.shift_start <= t0 and s.shift_end >= t1})
        if not on:
            continue
        team = tuple(on[: config.team_size])
        length = (t1 - t0).total_seconds() / 60.0
        if len(team) * length >= remaining:
            end = t0 + timedelta(minutes=math.ceil(remaining / len(team)))
            segments.append(WorkSegment(start=t0, end=end, staff_ids=team, engineer_hours=round(remaining / 60, 2)))
            return TaskSchedule(
                work_order_id=wo,
                station=order.station,
                required_authorisation=order.required_authorisation,
                labour_hours=order.estimated_labour_hours,
                earliest_start=earliest,
                start=segments[0].start,
                end=end,
                segments=tuple(segments),
            )
        remaining -= len(team) * length
        segments.append(WorkSegment(start=t0, end=t1, staff_ids=team, engineer_hours=round(len(team) * length / 60, 2)))
    return ReleaseBlocker(
        code="HORIZON_TOO_SHORT",
        work_order_id=wo,
        message=(
            f"{wo}: {remaining / 60:.1f} of {order.estimated_labour_hours} labour hours are still left at "
            f"{horizon_end:%Y-%m-%d %H:%M}Z; the authorised shifts rostered at {order.station} are not enough."
        ),
    )


def estimate_release(
    registration: str,
    work_orders: Sequence[WorkOrder],
    engineers: Sequence[MaintenanceEngineer],
    shifts: Sequence[MaintenanceShift],
    at: datetime,
    *,
    needed_by: datetime | None = None,
    tz: str = "UTC",
    config: MaintenanceConfig = DEFAULT_MAINTENANCE,
) -> ReleaseEstimate:
    """Estimated release to service of ``registration`` (None with a blocker when it cannot be estimated).

    ``needed_by`` (e.g. the departure it should operate) adds a ``mnt.release`` finding with the margin:
    releasing after it is illegal for that plan (advisory; the binding constraint is the AOG finding itself).
    """
    at = as_utc(at)
    orders = [o for o in work_orders if o.aircraft_registration == registration]
    now = aircraft_airworthiness(orders, at, registration=registration, tz=tz)
    if now.airworthy:
        return ReleaseEstimate(
            registration=registration, at=at, grounded=False, release_at=at, tasks=(), findings=now.findings
        )
    tasks: list[TaskSchedule] = []
    done: dict[str, datetime] = {}
    cursor = at
    pending = [o for o in grounding_work_orders(orders, at, tz=tz)]
    for _ in range(len(orders) + 1):  # each round closes at least one order, or stops
        pending = [o for o in pending if o.work_order_id not in done]
        if not pending:
            break
        for order in sorted(pending, key=lambda o: (o.parts_available_at or at, o.opened_at, o.work_order_id)):
            result = schedule_work_order(order, engineers, shifts, cursor, config=config)
            if isinstance(result, ReleaseBlocker):
                finding = _release_finding(registration, None, needed_by, result, config)
                return ReleaseEstimate(
                    registration=registration,
                    at=at,
                    grounded=True,
                    release_at=None,
                    tasks=tuple(tasks),
                    blocker=result,
                    findings=(*now.findings, finding),
                )
            tasks.append(result)
            done[order.work_order_id] = result.end
            cursor = result.end
        closed = [
            o.model_copy(update={"status": "CLOSED", "closed_at": done[o.work_order_id]})
            if o.work_order_id in done
            else o
            for o in orders
        ]
        release = cursor + timedelta(minutes=config.release_overhead_minutes)
        pending = grounding_work_orders(closed, release, tz=tz)  # e.g. a MEL item that ran out meanwhile
    release = cursor + timedelta(minutes=config.release_overhead_minutes)
    finding = _release_finding(registration, release, needed_by, None, config, tasks)
    return ReleaseEstimate(
        registration=registration,
        at=at,
        grounded=True,
        release_at=release,
        tasks=tuple(tasks),
        findings=(*now.findings, finding),
    )


def _release_finding(
    registration: str,
    release: datetime | None,
    needed_by: datetime | None,
    blocker: ReleaseBlocker | None,
    config: MaintenanceConfig,
    tasks: Sequence[TaskSchedule] = (),
) -> Finding:
    details = {
        "work_orders": [t.work_order_id for t in tasks],
        "team_size": config.team_size,
        "needed_by": needed_by.isoformat() if needed_by else None,
    }
    if blocker is not None:
        return Finding(
            rule="mnt.release",
            clause=RELEASE_CLAUSE,
            status="illegal",
            subject=registration,
            message=f"No release estimate for {registration}: {blocker.message}",
            details=details | {"blocker": blocker.code, "work_order_id": blocker.work_order_id},
        )
    assert release is not None
    details["release_at"] = release.isoformat()
    if needed_by is None:
        return Finding(
            rule="mnt.release",
            clause=RELEASE_CLAUSE,
            status="legal",
            subject=registration,
            message=f"{registration} estimated back in service at {release:%Y-%m-%d %H:%M}Z.",
            details=details,
        )
    margin = minutes_between(release, needed_by)
    status = status_for_margin(margin, config.at_risk_minutes)
    verdict = "in time" if margin >= 0 else "too late"
    return Finding(
        rule="mnt.release",
        clause=RELEASE_CLAUSE,
        status=status,
        subject=registration,
        margin_minutes=margin,
        message=(
            f"{registration} estimated back in service at {release:%Y-%m-%d %H:%M}Z, {verdict} for "
            f"{as_utc(needed_by):%Y-%m-%d %H:%M}Z (margin {fmt_hm(margin)})."
        ),
        details=details,
    )
