"""Crewability's repair loop: the plan with reserves where rostered crew turn illegal (network.crew judges them);
for a member the plan only leaves short of rest before their next duty, a reserve for that duty or, with none, that
duty re-timed after the minimum rest (its report moved, its tail's knock-on kept in sequence); and the flights no
legal crew can fly cancelled with whatever their tails can then no longer fly — round after round until every
operated flight is crewed, each change recorded for the audit (`Replanning`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from ..models.network_plan import CrewChange, FlightAction, Replanning
from ..rules.ferry import FERRY_RANKS, ferry_duty
from ..rules.standby import REPORT_BEFORE_DEPARTURE
from .continuity import flight_row, keep_continuous
from .crew import (
    CrewData,
    DutyVerdict,
    cover_next_duty,
    find_reserve,
    later_next_duty,
    moved_reports,
    rejudged,
    verdicts,
)
from .plan_roster import Times, plan_times
from .tails import cascade, plan_legs, scheduled_row, tail_starts

MAX_REPLANS = 20  # a round re-times next duties (first half only) or adds cancellations: this bounds the loop
MAX_PUSHES = 3  # a next duty moved again for another member's rest (whose own duty a reserve may yet take)


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
    pushed: Counter[str] = Counter()  # times each next duty was re-timed for a member's rest (at most MAX_PUSHES)
    for round_ in range(MAX_REPLANS):
        may_push = round_ < MAX_REPLANS // 2  # the later rounds only cancel, so the loop always settles
        by_id = {a.flight_id: a for a in rows}
        changes: dict[str, list[CrewChange]] = {}
        used: set[str] = set()
        uncrewable: dict[str, str] = {}
        times, types = plan_times(rows), {a.flight_id: a.aircraft_type for a in rows}
        answered: set[tuple[str, str]] = set()  # (crew id, duty id) a reserve already takes
        pushes: dict[str, tuple[int, str]] = {}  # next duty's first sector -> (minutes later, whose rest)
        released: dict[str, frozenset[str]] = {}  # crew id -> duties this round's reserves take from them
        for v in sorted(verdicts(crew, rows), key=lambda v: (by_id_departure(by_id, v), v.crew_id)):
            if v.crew_id in released and not v.legal:  # an earlier duty of theirs went to a reserve: rest changes
                v = rejudged(crew, v, times, types, released[v.crew_id])
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
            later = later_next_duty(crew, v, times, types) if v.short_of_rest_only and may_push else None
            if later is not None and pushed[later[0]] < MAX_PUSHES:  # no reserve: the next duty leaves after the rest
                minutes = max(pushes.get(later[0], (0, ""))[0], later[1])
                pushes[later[0]] = minutes, f"{v.crew_id} after {v.proposed.label}"
                continue
            found = None if v.out_of_position else find_reserve(crew, v, first, used, times)
            if found is None:
                for sector in v.sectors:
                    uncrewable.setdefault(
                        sector,
                        f"no legal crew: {v.rank} {v.crew_id} {v.reason()}; no legal {v.rank} reserve on standby",
                    )
                continue
            reserve, report = found
            used.add(reserve)
            released[v.crew_id] = released.get(v.crew_id, frozenset()) | {v.duty_id}
            # on the duty's first sector: the reserve takes the whole duty from there (execution releases the member's
            # sectors from that one on; the validation looks the change up there)
            changes.setdefault(v.sectors[0], []).append(
                CrewChange(rank=v.rank, replaced=v.crew_id, reserve=reserve, report_at=report, reason=v.reason())
            )
        _crew_ferries(crew, rows, used, times, changes, uncrewable)
        if pushes:  # re-timed, their tails' knock-on, and judged again next round
            pushed.update(pushes.keys())
            rows = _pushed(crew, rows, pushes)
            continue
        if not uncrewable:
            crewed = [a.model_copy(update={"crew_changes": changes.get(a.flight_id, [])}) for a in rows]
            crewed = [a.model_copy(update={"moved_reports": moved_reports(crew, a, times)}) for a in crewed]
            crewed += _recrewed_rows(crew, changes, {a.flight_id for a in rows})
            return sorted(crewed, key=lambda a: (a.scheduled_departure, a.flight_id)), replanned
        rows = _cancel_uncrewable(crew, rows, uncrewable, replanned)
    raise RuntimeError("crewability did not settle: the roster keeps breaking new duties")


def _crew_ferries(
    crew: CrewData,
    rows: list[FlightAction],
    used: set[str],
    times: Times,
    changes: dict[str, list[CrewChange]],
    uncrewable: dict[str, str],
) -> None:
    """An empty ferry needs a captain and a first officer called out from standby: added to `changes`, or the ferry
    to `uncrewable`."""
    for a in rows:
        if a.action == "ferry" and a.new_departure and a.new_arrival:
            duty = ferry_duty(a.origin, a.destination, a.aircraft_type, a.new_departure, a.new_arrival)
            for rank in FERRY_RANKS:
                v = DutyVerdict("", rank, a.flight_id, (a.flight_id,), duty, (), None)
                found = find_reserve(crew, v, a.new_departure, used, times)
                if found is None:
                    uncrewable[a.flight_id] = f"no legal {rank} on standby at {a.origin} for the ferry"
                    break
                used.add(found[0])
                changes.setdefault(a.flight_id, []).append(
                    CrewChange(rank=rank, replaced="", reserve=found[0], report_at=found[1], reason="ferry crew")
                )


def _cancel_uncrewable(
    crew: CrewData, rows: list[FlightAction], uncrewable: dict[str, str], replanned: list[Replanning]
) -> list[FlightAction]:
    """The uncrewable flights cancelled with what their tails can then not fly, each recorded in `replanned`."""
    rotations, listed = crew.data.rotations, {a.flight_id for a in rows}
    stranded = cascade(plan_legs(rows, rotations), set(uncrewable), tail_starts(rotations)) - set(uncrewable)
    for flight_id, reason in sorted(uncrewable.items()):
        if flight_id in listed:
            replanned.append(Replanning(flight_id=flight_id, change="cancelled", reason=reason))
    for flight_id in sorted(stranded):
        replanned.append(
            Replanning(flight_id=flight_id, change="cancelled", reason="its tail is stranded by a crew cancellation")
        )
    return _apply_cancellations(crew, rows, uncrewable, stranded)


def _pushed(crew: CrewData, rows: list[FlightAction], pushes: dict[str, tuple[int, str]]) -> list[FlightAction]:
    """The plan with each next duty's first sector re-timed by its crew's rest shortfall (a flight the plan did not
    list joins it), then every touched tail kept in sequence (network.continuity's knock-on)."""
    by_id = {a.flight_id: a for a in rows}
    for flight_id, (minutes, whose) in sorted(pushes.items()):
        a = by_id.get(flight_id)
        f = crew.flight(flight_id)
        if a is None and f is not None:
            a = flight_row(f, "operate", "")
        if a is None or not a.operates or a.new_departure is None or a.new_arrival is None:
            continue
        if a.new_registration in crew.data.grounded:  # it flies nothing: the crew's rest before it is moot
            continue
        by = timedelta(minutes=minutes)
        why = f"later for its crew's minimum rest ({whose}, ORO.FTL.235): their report moves {minutes} min"
        by_id[flight_id] = a.model_copy(
            update={
                "action": "retime" if a.action == "operate" else a.action,
                "new_departure": a.new_departure + by,
                "new_arrival": a.new_arrival + by,
                "delay_minutes": a.delay_minutes + minutes,
                "reason": f"{a.reason}; {why}" if a.reason else why,
            }
        )
    rotations = crew.data.rotations
    types = {reg: legs[0].aircraft_type for reg, legs in rotations.items() if legs}
    return keep_continuous(list(by_id.values()), rotations, types)


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
            flight_row(
                f, "cancel", f"cancelled: {uncrewable.get(flight_id, 'its tail is stranded by a crew cancellation')}"
            )
        )
    return sorted(out, key=lambda a: (a.scheduled_departure, a.flight_id))
