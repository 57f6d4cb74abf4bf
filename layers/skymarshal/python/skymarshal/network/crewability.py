"""Crewability's repair loop: the plan with reserves where rostered crew turn illegal (network.crew judges them),
a reserve for the next duty of a member the plan only leaves short of rest before it, and the flights no legal crew
can fly cancelled with whatever their tails can then no longer fly, round after round until every operated flight
is crewed; each change recorded for the audit (`Replanning`).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from ..analysis.crew import FERRY_RANKS, ferry_duty
from ..models.network_plan import CrewChange, FlightAction, Replanning
from ..rules.standby import REPORT_BEFORE_DEPARTURE
from .crew import CrewData, DutyVerdict, cover_next_duty, find_reserve, moved_reports, plan_times, verdicts
from .tails import cascade, plan_legs, scheduled_row, tail_starts

MAX_REPLANS = 20  # each round only adds cancellations, so it ends; this bounds a pathological roster


def _cancelled(a: FlightAction, reason: str) -> FlightAction:
    return a.model_copy(
        update={
            "action": "cancel",
            "new_departure": None,
            "new_arrival": None,
            "new_registration": None,
            "delay_minutes": 0,
            "crew_changes": [],
            "reason": f"{a.reason}; cancelled: {reason}" if a.reason else f"cancelled: {reason}",
        }
    )


def make_crewable(crew: CrewData, actions: Sequence[FlightAction]) -> tuple[list[FlightAction], list[Replanning]]:
    """The plan with reserves where rostered crew turn illegal, and flights no legal crew can fly cancelled (with
    the flights their tails can then no longer fly), until every operated flight is crewed."""
    rows = list(actions)
    replanned: list[Replanning] = []
    for _ in range(MAX_REPLANS):
        by_id = {a.flight_id: a for a in rows}
        changes: dict[str, list[CrewChange]] = {}
        used: set[str] = set()
        uncrewable: dict[str, str] = {}
        times, types = plan_times(rows), {a.flight_id: a.aircraft_type for a in rows}
        answered: set[tuple[str, str]] = set()  # (crew id, duty id) a reserve already takes
        for v in sorted(verdicts(crew, rows), key=lambda v: (by_id_departure(by_id, v), v.crew_id)):
            if v.legal or v.proposed is None or (v.crew_id, v.duty_id) in answered:
                continue
            first = by_id_departure(by_id, v)
            cover = cover_next_duty(crew, v, times, types, used) if v.short_of_rest_only else None
            if cover is not None:  # the member flies this duty; a reserve takes the next one
                duty_id, sector, change = cover
                used.add(change.reserve)
                answered.add((v.crew_id, duty_id))
                changes.setdefault(sector, []).append(change)
                continue
            found = None if v.out_of_position else find_reserve(crew, v, first, used)
            if found is None:
                for sector in v.sectors:
                    uncrewable.setdefault(
                        sector,
                        f"no legal crew: {v.rank} {v.crew_id} {v.reason()}; no legal {v.rank} reserve on standby",
                    )
                continue
            reserve, report = found
            used.add(reserve)
            # on the duty's first sector: the reserve takes the whole duty from there (execution releases the member's
            # sectors from that one on; the validation looks the change up there)
            changes.setdefault(v.sectors[0], []).append(
                CrewChange(rank=v.rank, replaced=v.crew_id, reserve=reserve, report_at=report, reason=v.reason())
            )
        for a in rows:  # an empty ferry needs a captain and a first officer called out from standby
            if a.action == "ferry" and a.new_departure and a.new_arrival:
                duty = ferry_duty(a.origin, a.destination, a.aircraft_type, a.new_departure, a.new_arrival)
                for rank in FERRY_RANKS:
                    v = DutyVerdict("", rank, a.flight_id, (a.flight_id,), duty, (), None)
                    found = find_reserve(crew, v, a.new_departure, used)
                    if found is None:
                        uncrewable[a.flight_id] = f"no legal {rank} on standby at {a.origin} for the ferry"
                        break
                    used.add(found[0])
                    changes.setdefault(a.flight_id, []).append(
                        CrewChange(rank=rank, replaced="", reserve=found[0], report_at=found[1], reason="ferry crew")
                    )
        if not uncrewable:
            crewed = [a.model_copy(update={"crew_changes": changes.get(a.flight_id, [])}) for a in rows]
            crewed = [a.model_copy(update={"moved_reports": moved_reports(crew, a, times)}) for a in crewed]
            crewed += _recrewed_rows(crew, changes, {a.flight_id for a in rows})
            return sorted(crewed, key=lambda a: (a.scheduled_departure, a.flight_id)), replanned
        rotations = crew.data.rotations
        stranded = cascade(plan_legs(rows, rotations), set(uncrewable), tail_starts(rotations)) - set(uncrewable)
        for flight_id, reason in sorted(uncrewable.items()):
            if flight_id in by_id:
                replanned.append(Replanning(flight_id=flight_id, change="cancelled", reason=reason))
        for flight_id in sorted(stranded):
            replanned.append(
                Replanning(
                    flight_id=flight_id, change="cancelled", reason="its tail is stranded by a crew cancellation"
                )
            )
        rows = _apply_cancellations(crew, rows, uncrewable, stranded)
    raise RuntimeError("crewability did not settle: the roster keeps breaking new duties")


def _recrewed_rows(crew: CrewData, changes: dict[str, list[CrewChange]], listed: set[str]) -> list[FlightAction]:
    """A re-crewed duty's first sector the plan did not list (it flies as scheduled) joins the plan with its crew
    change: else the change is lost and the reserve never called."""
    out = []
    for flight_id in sorted(set(changes) - listed):
        f = crew.flight(flight_id)
        if f is not None:
            out.append(
                scheduled_row(f).model_copy(
                    update={"crew_changes": changes[flight_id], "reason": "re-crewed: its crew's duty runs long"}
                )
            )
    return out


def by_id_departure(by_id: dict[str, FlightAction], v: DutyVerdict) -> datetime:
    a = by_id.get(v.sectors[0]) if v.sectors else None
    if a is not None and a.new_departure is not None:
        return a.new_departure
    return v.proposed.report + REPORT_BEFORE_DEPARTURE if v.proposed else datetime.max.replace(tzinfo=UTC)


def _apply_cancellations(
    crew: CrewData, rows: list[FlightAction], uncrewable: dict[str, str], stranded: set[str]
) -> list[FlightAction]:
    """Cancel the uncrewable flights and the ones their tails can no longer fly; a flight the plan did not list yet
    (it flew as scheduled) joins the plan as cancelled. A positioning ferry among them leaves the plan: it is no flight
    of the schedule, so not flying it is no cancellation to announce or to execute (exclusions.py likewise)."""
    out = [
        _cancelled(a, uncrewable.get(a.flight_id, "its tail is stranded by a crew cancellation"))
        if a.flight_id in uncrewable or a.flight_id in stranded
        else a
        for a in rows
        if a.action != "ferry" or (a.flight_id not in uncrewable and a.flight_id not in stranded)
    ]
    listed = {a.flight_id for a in rows}
    for flight_id in sorted((set(uncrewable) | stranded) - listed):
        f = crew.flight(flight_id)
        if f is None:
            continue
        out.append(
            FlightAction(
                flight_id=f.flight_id,
                flight_number=f.flight_number,
                origin=f.origin,
                destination=f.destination,
                action="cancel",
                scheduled_departure=f.scheduled_departure,
                scheduled_arrival=f.scheduled_arrival,
                registration=f.aircraft_registration,
                aircraft_type=f.aircraft_type,
                reason=f"cancelled: {uncrewable.get(flight_id, 'its tail is stranded by a crew cancellation')}",
            )
        )
    return sorted(out, key=lambda a: (a.scheduled_departure, a.flight_id))
