"""A held flight's crew released from their next duty: a member the hold leaves short of the rest before their
next duty (ORO.FTL.235) flies the held flight, and the next duty is flown by a reserve on standby at its origin who
may legally take it (ORO.FTL.225, ``rules.standby``), else its flights are cancelled with what their tails then
cannot reach — the answers SkyMarshal's plans give (arbitration/crew/next_duty_cancel.py), here for the hindsight's
cover (``hindsight.covered``). The crew rules judge every member; nothing here decides legality itself."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CrewDuty, Flight
from ..rules.crew import OperatorRules
from ..rules.rostered import CrewLegality, rostered_duty
from ..rules.standby import CALL_OUT, legal_reserves, standby_covering
from .crew_cover import StandbyIndex, called_out, rested_crew
from .realize import DayState
from .scorecard import illegal_members

RULES = OperatorRules()


def next_duty(rows: Sequence[CrewDuty], flight_id: str) -> list[CrewDuty]:
    """The member's sectors of the duty after the one holding `flight_id`, in order (empty: none rostered)."""
    own = next((r for r in rows if r.flight_id == flight_id and r.kind == "FLIGHT"), None)
    if own is None:
        return []
    later = [r for r in rows if r.kind == "FLIGHT" and r.duty_id != own.duty_id and r.duty_start > own.duty_start]
    if not later:
        return []
    first = min(later, key=lambda r: r.duty_start)
    return sorted((r for r in later if r.duty_id == first.duty_id), key=lambda r: r.sector_departure or r.duty_start)


def stranded_by(state: DayState, flight_id: str) -> list[str]:
    """The flight and the later flights of its tail that cannot fly once it is cancelled: up to the tail's next
    departure from the cancelled flight's origin, where it stands (all of them if it never leaves there again)."""
    f = state.flights[flight_id]
    later = sorted(
        (
            x
            for x in state.flights.values()
            if x.aircraft_registration == f.aircraft_registration and x.departure > f.departure
            and x.status != "CANCELLED"
        ),
        key=lambda x: (x.departure, x.flight_id),
    )  # fmt: skip
    out = [flight_id]
    for x in later:
        if x.origin == f.origin:
            break
        out.append(x.flight_id)
    return out


def _cancelled(state: DayState, duty: Sequence[CrewDuty], by: str) -> DayState:
    flights = dict(state.flights)
    for row in duty:
        g = flights.get(row.flight_id or "")
        if g is None or g.status == "CANCELLED":
            continue
        for gone in stranded_by(dataclasses.replace(state, flights=flights), g.flight_id):
            flights[gone] = flights[gone].model_copy(update={"status": "CANCELLED", "updated_by_execution": by})
    return dataclasses.replace(state, flights=flights)


def _reserve(
    state: DayState,
    member: CrewLegality,
    own: Sequence[CrewDuty],
    duty: Sequence[CrewDuty],
    now: datetime,
    standby: StandbyIndex,
    by: str,
) -> DayState | None:
    """`state` with a legal reserve flying `duty` in the member's place, or None (no notice left, none legal)."""
    first = state.flights.get(duty[0].flight_id or "")
    report = duty[0].duty_start
    if first is None or report < now + CALL_OUT:
        return None
    rating = AIRCRAFT_TYPES[first.aircraft_type].rating_group
    on_board = {r.crew_id for r in state.crew_on.get(first.flight_id, [])}
    candidates = [
        state.members[r.crew_id]
        for r in standby_covering(first.origin, report, standby.read)
        if r.crew_id in state.members and r.crew_id not in on_board and rating in state.members[r.crew_id].type_ratings
    ]
    template = rostered_duty(own, first.flight_id)
    found, missing = legal_reserves(
        [(member.crew_id, member.rank)], candidates, lambda cid: state.rosters.get(cid, ()), template, report, RULES
    )
    if missing:
        return None
    new = found[member.crew_id]
    rows = [
        r.model_copy(update={"crew_id": new, "duty_id": f"{by}:{new}:{r.duty_id}", "updated_by_execution": by})
        for r in duty
    ]
    crew_on = dict(state.crew_on)
    for row in rows:
        crew_on[row.flight_id or ""] = [*crew_on.get(row.flight_id or "", ()), row]
    return dataclasses.replace(
        state, crew_on=crew_on, rosters={**state.rosters, new: [*called_out(state.rosters.get(new, ()), report), *rows]}
    )


def _off_next_duty(state: DayState, crew_ids: Sequence[str], f_id: str) -> tuple[DayState, dict, dict]:
    """`state` with each of `crew_ids` taken off the whole duty after the one holding `f_id` (those with one), their
    rows (crew id → roster) and those duties (crew id → its sectors)."""
    owns = {cid: list(state.rosters[cid]) for cid in crew_ids}
    duties = {cid: duty for cid, rows in owns.items() if (duty := next_duty(rows, f_id))}
    rosters = {cid: [r for r in owns[cid] if r.duty_id != duty[0].duty_id] for cid, duty in duties.items()}
    crew_on = dict(state.crew_on)
    for cid, duty in duties.items():
        for row in duty:
            crew_on[row.flight_id or ""] = [r for r in crew_on.get(row.flight_id or "", ()) if r.crew_id != cid]
    return dataclasses.replace(state, rosters={**state.rosters, **rosters}, crew_on=crew_on), owns, duties


def _flown_by_others(
    state: DayState,
    members: Sequence[CrewLegality],
    owns: dict,
    duties: dict,
    now: datetime,
    standby: StandbyIndex,
    by: str,
    cancel: bool,
) -> DayState | None:
    """Each member's next duty (`duties`) flown by a reserve, else cancelled (`cancel`; without it, None)."""
    for c in members:
        if (duty := duties.get(c.crew_id)) is None:
            continue
        covered = _reserve(state, c, owns[c.crew_id], duty, now, standby, by)
        if covered is None and not cancel:
            return None
        state = covered or _cancelled(state, duty, by)
    return state


def released(
    state: DayState,
    f_id: str,
    departure: datetime,
    now: datetime,
    standby: StandbyIndex,
    by: str,
    cancel: bool = True,
) -> DayState | None:
    """`state` with every member illegal when flight `f_id` leaves at `departure` taken off their next duty —
    flown by a reserve, else cancelled (`cancel`; without it, None) — or None when that does not make them legal
    (another limit binds, or no next duty is rostered)."""
    f = state.flights[f_id]
    illegal = illegal_members(state, f, departure)
    if not illegal:
        return None
    out, owns, duties = _off_next_duty(state, [c.crew_id for c in illegal], f_id)
    if len(duties) < len(illegal) or illegal_members(out, f, departure):
        return None
    return _flown_by_others(out, illegal, owns, duties, now, standby, by, cancel)


def rested_released(
    state: DayState, f: Flight, departure: datetime, now: datetime, standby: StandbyIndex, by: str
) -> DayState | None:
    """`state` with `f` flown by its own crew after their minimum rest where they are (``crew_cover.rested_crew``),
    each member illegal at `departure` taken off the next duty that rest runs into — flown by a reserve, else
    cancelled: the inbound crew's night stop an OCC makes at an outstation, its next duty given away. None when no
    member has a next duty (``rested_crew`` alone is then the same answer) or the rest finds no legal time."""
    illegal = illegal_members(state, f, departure)
    out, owns, duties = _off_next_duty(state, [c.crew_id for c in illegal], f.flight_id)
    if not duties:
        return None
    given_away = _flown_by_others(out, illegal, owns, duties, now, standby, by, cancel=True)
    return rested_crew(given_away, f, departure, now, by) if given_away is not None else None
