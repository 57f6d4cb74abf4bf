"""The crew side of the before/after Gantt: one row per rostered crew member of the disrupted flight, and one
per reserve a plan calls out.

Crews follow their flights: a sector bar moves exactly as the plan moves its flight (`planned`, from the tail
side), so the two views never disagree. A ReassignCrew takes the rostered member off the flight (`replaced`)
and puts the reserve on it from the report time the plan gives to the flight's arrival (`reserve_call_out`);
the reserve's standby is shown in both layers for the time before the call-out.
"""

from __future__ import annotations

from ..arbitration.actions import ReassignCrew
from ..arbitration.models import ConstraintCheck
from ..models.operational import CrewDuty
from .gantt_models import Change, GanttBar, GanttRow, Layer, OpsSnapshot, PlannedFlight

RANK_ORDER = {"CPT": 0, "FO": 1, "CD": 2, "CA": 3}


def crew_rows(
    ops: OpsSnapshot, planned: dict[str, PlannedFlight], reassign: ReassignCrew | None, checks: list[ConstraintCheck]
) -> list[GanttRow]:
    f = ops.flight
    replacements = dict(reassign.replacements) if reassign else {}
    rostered = sorted(
        (d for d in ops.roster if d.flight_id == f.flight_id),
        key=lambda d: (RANK_ORDER.get(d.position or "", 9), d.crew_id),
    )
    rows = []
    for member in rostered:
        bars = []
        for duty in _shown(ops.duties.get(member.crew_id, [member])):
            bars.append(_duty_bar("original", duty, None))
            bars.append(_duty_bar("plan", duty, planned.get(duty.flight_id or ""), checks, member.crew_id, f.flight_id))
        if member.crew_id in replacements:  # marked where the member was rostered: that sector is no longer theirs
            gone = {
                "change": "replaced",
                "start": f.scheduled_departure,
                "end": f.scheduled_arrival,
                "delay_minutes": 0,
                "note": f"replaced by reserve {replacements[member.crew_id]}",
            }
            bars = [b.model_copy(update=gone) if b.layer == "plan" and b.flight_id == f.flight_id else b for b in bars]
        rows.append(
            GanttRow(
                kind="crew", key=member.crew_id, label=f"{member.position or ''} {member.crew_id}".strip(), bars=bars
            )
        )
    if reassign is not None:
        for replaced, reserve in reassign.replacements.items():
            rank = next((m.position for m in rostered if m.crew_id == replaced), None) or ""
            rows.append(_reserve_row(ops, planned, reassign, reserve, replaced, rank, checks))
    return rows


def _reserve_row(
    ops: OpsSnapshot,
    planned: dict[str, PlannedFlight],
    reassign: ReassignCrew,
    reserve: str,
    replaced: str,
    rank: str,
    checks: list[ConstraintCheck],
) -> GanttRow:
    f = ops.flight
    p = planned.get(f.flight_id)
    bars = []
    for duty in _shown(ops.duties.get(reserve, [])):
        bars.append(_duty_bar("original", duty, None))
        if duty.kind == "STANDBY":  # in the plan the standby ends at the call-out
            end = min(duty.duty_end, max(duty.duty_start, reassign.report_at))
            if end > duty.duty_start:  # a standby that would have started after the call-out is not drawn
                bars.append(_duty_bar("plan", duty, None).model_copy(update={"end": end}))
        else:
            bars.append(_duty_bar("plan", duty, planned.get(duty.flight_id or ""), checks, reserve, f.flight_id))
    arrival = p.end if p else f.scheduled_arrival
    bars.append(
        GanttBar(
            layer="plan",
            change="reserve_call_out",
            label=f.flight_number,
            flight_id=f.flight_id,
            origin=f.origin,
            destination=p.destination if p else f.destination,
            start=min(reassign.report_at, arrival),
            end=arrival,
            delay_minutes=p.delay_minutes if p else 0,
            passengers=sum(f.booked.values()),
            constraints=_crew_checks(checks, reserve, f.flight_id, disrupted=True),
            note=f"reserve called out, reports {reassign.report_at:%H:%MZ}, replaces {replaced}",
        )
    )
    return GanttRow(kind="crew", key=reserve, label=f"{rank} {reserve} (reserve)".strip(), bars=bars)


def _shown(duties: list[CrewDuty]) -> list[CrewDuty]:
    """Sectors and standbys (a HISTORY row summarises past duty and is not a bar)."""
    return sorted((d for d in duties if d.kind in ("FLIGHT", "POSITIONING", "STANDBY")), key=lambda d: d.duty_key)


def _duty_bar(
    layer: Layer,
    duty: CrewDuty,
    moved: PlannedFlight | None,
    checks: list[ConstraintCheck] | None = None,
    crew_id: str | None = None,
    disrupted_flight: str | None = None,
) -> GanttBar:
    if duty.kind == "STANDBY" or duty.flight_id is None:
        return GanttBar(
            layer=layer,
            change="standby" if duty.kind == "STANDBY" else "unchanged",
            label="STBY" if duty.kind == "STANDBY" else duty.kind,
            duty_key=duty.duty_key,
            origin=duty.start_station,
            destination=duty.end_station,
            start=duty.duty_start,
            end=duty.duty_end,
        )
    start = duty.sector_departure or duty.duty_start
    end = duty.sector_arrival or duty.duty_end
    change: Change = "unchanged"
    destination, delay = duty.end_station, 0
    if moved is not None:
        start, end, change, destination, delay = (
            moved.start,
            moved.end,
            moved.change,
            moved.destination,
            moved.delay_minutes,
        )
    return GanttBar(
        layer=layer,
        change=change,
        label=duty.flight_number or duty.flight_id,
        flight_id=duty.flight_id,
        origin=duty.start_station,
        destination=destination,
        start=start,
        end=end,
        delay_minutes=delay,
        constraints=_crew_checks(checks or [], crew_id, duty.flight_id, disrupted=duty.flight_id == disrupted_flight)
        if layer == "plan"
        else [],
    )


def _crew_checks(
    checks: list[ConstraintCheck], crew_id: str | None, flight_id: str | None, *, disrupted: bool
) -> list[str]:
    """The plan's checks about this member (by crew id), and on the disrupted flight the crew-wide ones made for
    it (crew and reserve legality, by flight id)."""
    names = {crew_id, flight_id} if disrupted else {crew_id}
    return [
        check_text(c) for c in checks if c.subject in names and ("crew" in c.constraint or "reserve" in c.constraint)
    ]


def check_text(c: ConstraintCheck) -> str:
    return f"{c.constraint} — {c.status} ({c.clause}): {c.message}"
