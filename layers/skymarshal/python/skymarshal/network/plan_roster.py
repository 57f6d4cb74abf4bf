"""The crew roster as a network plan flies it: each flight's new times (`plan_times`), and a member's roster rows
under them (`roster_under`) — a duty re-timed while its crew is still at rest reports later (CS FTL.1.205(d)
delayed reporting), each duty ends at its last sector's new on-blocks, and the duties a reserve takes are gone, so
the rest before and after any duty (ORO.FTL.235) is measured between the duties the member will really fly.

Pure functions over roster rows and plan rows (no data access): network.crew judges with them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from ..models.network_plan import FlightAction
from ..models.operational import CrewDuty

Times = dict[str, tuple[datetime, datetime] | None]  # flight id -> new (departure, arrival); None: cancelled


def report_shift(first: CrewDuty, times: Times, notice: datetime) -> timedelta:
    """How much later a duty whose first sector is `first` reports under the plan: by that sector's re-timing when
    the member is still at rest past the call-out `notice` (CS FTL.1.205(d) delayed reporting), else not at all."""
    when = times.get(first.flight_id or "")
    if when is None or first.sector_departure is None or first.duty_start <= notice:
        return timedelta(0)
    return max(timedelta(0), when[0] - first.sector_departure)


def roster_under(
    rows: Sequence[CrewDuty], times: Times, notice: datetime, released: frozenset[str] = frozenset()
) -> list[CrewDuty]:
    """A member's roster with each flight duty as the plan flies it: the report moved by `report_shift`, the duty
    ending at its last operated sector's new on-blocks (the release after it as rostered), and the duties a reserve
    takes from them (`released`) gone. The rest before and after any duty is then measured between the duties the
    member will really fly."""
    rows = [r for r in rows if r.duty_id not in released]
    duties: dict[str, list[CrewDuty]] = {}
    for r in rows:
        if r.kind == "FLIGHT" and r.flight_id:
            duties.setdefault(r.duty_id, []).append(r)
    changed: dict[str, dict[str, datetime]] = {}
    for duty_id, sectors in duties.items():
        sectors.sort(key=lambda r: r.sector_departure or r.duty_start)
        first = sectors[0]
        start = first.duty_start + report_shift(first, times, notice)
        arrivals = [w[1] for r in sectors if (w := times.get(r.flight_id or "", _rostered(r))) is not None]
        if not arrivals or first.fdp_end is None:
            continue
        fdp_end = max(arrivals)
        update = {"duty_start": start, "fdp_end": fdp_end, "duty_end": fdp_end + (first.duty_end - first.fdp_end)}
        if any(getattr(first, k) != v for k, v in update.items()):
            changed[duty_id] = update
    return [r.model_copy(update=changed[r.duty_id]) if r.duty_id in changed else r for r in rows]


def _rostered(r: CrewDuty) -> tuple[datetime, datetime] | None:
    return (r.sector_departure, r.sector_arrival) if r.sector_departure and r.sector_arrival else None


def plan_times(actions: Sequence[FlightAction]) -> Times:
    return {
        a.flight_id: (a.new_departure, a.new_arrival) if a.new_departure and a.new_arrival else None for a in actions
    }
