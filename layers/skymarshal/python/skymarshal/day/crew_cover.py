"""A baseline's crews: who is illegal when a flight leaves late, and a reserve on standby who may legally take
their place — the crew rules of ``rules.rostered`` and the standby selection of ``rules.standby`` (the ones the
crew agent and the arbitrator use), applied to a baseline's own tables. Nothing here decides legality itself.

A reserve called by a baseline is written into the baseline's tables the way an execution would: the replaced
member leaves the flight's crew, the reserve joins it with a duty reporting at the call-out's report time, so the
scorecard's crew check (``scorecard.illegal_members``) reads the reserve's duty through the same rules.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from typing import NamedTuple

from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CrewDuty, Flight
from ..rules.crew import OperatorRules, evaluate_duty, is_legal
from ..rules.rostered import duty_at_delay, rostered_duty
from ..rules.standby import CALL_OUT, REPORT_BEFORE_DEPARTURE, call_out_report, legal_reserves, standby_covering
from .realize import DayState, realize
from .scorecard import illegal_members, planned_departure
from .stream import StreamEvent

RULES = OperatorRules()


def _minutes(a: datetime, b: datetime) -> int:
    return round((b - a).total_seconds() / 60)


class StandbyIndex:
    """The STANDBY rows of the baseline's rosters by (base, local day) — the roster's standby index, in memory, as
    the day found them. A called reserve's standby is ended at the call-out in their roster (`called_out`), so the
    crew rules, which read the roster, refuse any second call from it (no reserve is used twice)."""

    def __init__(self, rosters: Mapping[str, Sequence[CrewDuty]]):
        self.rows: dict[str, list[CrewDuty]] = defaultdict(list)
        for rows in rosters.values():
            for r in rows:
                if r.kind == "STANDBY" and r.standby_base_date:
                    self.rows[r.standby_base_date].append(r)

    def read(self, station: str, day: date) -> list[CrewDuty]:
        return self.rows.get(f"{station}#{day.isoformat()}", [])


def called_out(rows: Sequence[CrewDuty], report: datetime) -> list[CrewDuty]:
    """A reserve's rows with the standby covering `report` ended there, as execution ends it at a call-out: the
    standby rule (ORO.FTL.225) then refuses a second call from it, even after the first duty is over."""
    return [
        r.model_copy(update={"duty_end": max(report, r.duty_start + timedelta(minutes=1))})
        if r.kind == "STANDBY" and r.duty_start <= report <= r.duty_end
        else r
        for r in rows
    ]


def _reserve_rows(
    own: Sequence[CrewDuty], replaced: CrewDuty, reserve: str, report: datetime, delay: int, by: str, station: str
) -> list[CrewDuty]:
    """The reserve's roster rows: the replaced member's sector (`own`: their rows) and the sectors of their duty
    after it — the reserve flies the rest of the duty, the template it was checked on at `delay` (``moved_minutes``
    says the times are already moved by it) — reporting at `report`."""
    template = duty_at_delay(own, replaced.flight_id or "", delay)
    fdp_end = template.fdp_end
    release = template.release or fdp_end + timedelta(minutes=RULES.post_flight_minutes)
    after = replaced.sector_departure or replaced.duty_start
    sectors = [replaced] + [
        r
        for r in own
        if r.duty_id == replaced.duty_id and r.kind == "FLIGHT" and r.flight_id != replaced.flight_id
        and (r.sector_departure or r.duty_start) > after
    ]  # fmt: skip
    return [
        r.model_copy(
            update={
                "crew_id": reserve,
                "start_station": station,  # where the reserve reports (the flight's origin, or positioned from base)
                "duty_id": f"{by}:{reserve}:{replaced.flight_id}",
                "duty_key": f"{report:%Y-%m-%dT%H:%M:%SZ}#{r.sector_departure or 'x'}#{r.flight_id}",
                "duty_start": report,
                "fdp_end": fdp_end,
                "duty_end": max(release, fdp_end),
                "moved_minutes": delay,
                "updated_by_execution": by,
            }
        )
        for r in sectors
    ]


def _first_sector(rows: Sequence[CrewDuty], flight_id: str) -> CrewDuty | None:
    """The member's row for `flight_id` when it is the first sector of its duty (its report can move with it)."""
    row = next((r for r in rows if r.flight_id == flight_id and r.kind == "FLIGHT"), None)
    if row is None or row.sector_departure is None:
        return None
    sectors = [
        r.sector_departure for r in rows if r.duty_id == row.duty_id and r.kind == "FLIGHT" and r.sector_departure
    ]
    return row if row.sector_departure <= min(sectors) else None


def _report_moved(rows: Sequence[CrewDuty], duty_id: str, minutes: int) -> list[CrewDuty]:
    """The member's rows with the duty's report, FDP end and release `minutes` later; the sectors keep their
    scheduled times and ``moved_minutes`` says by how much the duty moved (``rules.rostered.duty_at_delay``)."""
    by = timedelta(minutes=minutes)
    # a row without its duty's on-blocks: the last sector's arrival is it (as rostered_duty reads it)
    arrivals = [r.sector_arrival for r in rows if r.duty_id == duty_id and r.kind == "FLIGHT" and r.sector_arrival]
    on_blocks = max(arrivals, default=None)

    def shift(r: CrewDuty) -> CrewDuty:
        fdp_end = r.fdp_end or on_blocks
        return r.model_copy(
            update={
                "duty_start": r.duty_start + by,
                "duty_end": r.duty_end + by,
                "fdp_end": None if fdp_end is None else fdp_end + by,
                "moved_minutes": r.moved_minutes + minutes,
            }
        )

    return [shift(r) if r.duty_id == duty_id else r for r in rows]


def moved_reports(state: DayState, f: Flight, departure: datetime, now: datetime) -> DayState | None:
    """`state` with the report of each member illegal when `f` leaves at `departure` moved as much later, when
    their duty starts at `f` and they are still at rest — their report more than the call-out notice away (CS
    FTL.1.205(d) delayed reporting, as the arbitrator moves a knock-on's crews) — and the crew rules find the
    moved duty legal (FDP from the new report, rest before and after: ORO.FTL.205/235). None: nobody moved."""
    rows = list(state.crew_on.get(f.flight_id, []))
    delay = max(0, _minutes(planned_departure(rows), departure)) if rows else 0
    moved: dict[str, list[CrewDuty]] = {}
    for c in illegal_members(state, f, departure):
        own = state.rosters[c.crew_id]
        first = _first_sector(own, f.flight_id)
        if first is None or first.duty_start <= now + CALL_OUT or delay <= first.moved_minutes:
            continue
        shifted = _report_moved(own, first.duty_id, delay - first.moved_minutes)
        if is_legal(evaluate_duty(state.members[c.crew_id], shifted, rostered_duty(shifted, f.flight_id), RULES)):
            moved[c.crew_id] = shifted
    if not moved:
        return None
    crew = [next(x for x in moved[r.crew_id] if x.flight_id == f.flight_id) if r.crew_id in moved else r for r in rows]
    return dataclasses.replace(state, crew_on={**state.crew_on, f.flight_id: crew}, rosters={**state.rosters, **moved})


def retimed(f: Flight, leaves: datetime, by: str) -> Flight:
    """`f` leaving at `leaves`, its block kept: a cover's retime, written as the decision's."""
    return f.model_copy(
        update={
            "estimated_departure": leaves,
            "estimated_arrival": leaves + (f.arrival - f.departure),
            "updated_by_execution": by,
        }
    )


def retimed_in_sequence(state: DayState, f: Flight, leaves: datetime, by: str) -> dict[str, Flight]:
    """`state`'s flights with `f` leaving at `leaves` and its tail's next flights it would then overtake re-timed
    behind it (each leaving once the one before has landed and turned round): a retime never leaves the aircraft's
    later legs in front of it, which flown would be a rotation break (``rules.rotation``), not a knock-on."""
    flights = {**state.flights, f.flight_id: retimed(f, leaves, by)}
    turn = timedelta(minutes=AIRCRAFT_TYPES[f.aircraft_type].min_turn_minutes)
    ready = leaves + (f.arrival - f.departure) + turn
    later = sorted(
        (
            g
            for g in state.flights.values()
            if g.aircraft_registration == f.aircraft_registration
            and g.status != "CANCELLED"
            and (g.departure, g.flight_id) > (f.departure, f.flight_id)
        ),
        key=lambda g: (g.departure, g.flight_id),
    )
    for g in later:
        if g.departure >= ready:
            break
        flights[g.flight_id] = retimed(g, ready, by)
        ready += (g.arrival - g.departure) + turn
    return flights


def _without(state: DayState, flight_id: str, crew_ids: set[str]) -> DayState:
    rows = [r for r in state.crew_on.get(flight_id, []) if r.crew_id not in crew_ids]
    return dataclasses.replace(state, crew_on={**state.crew_on, flight_id: rows})


class Positioned(NamedTuple):
    """Reserves called from another station, travelling to the flight (on a rescue aircraft's ferry): where
    they stand by, when they report there, and the earliest the flight may leave with them."""

    station: str
    report: datetime
    ready: datetime


def reserve_cover(
    state: DayState,
    f: Flight,
    departure: datetime,
    now: datetime,
    known: Sequence[StreamEvent],
    standby: StandbyIndex,
    by: str,
    positioned: Positioned | None = None,
    replacing: Sequence[tuple[str, str]] | None = None,
) -> DayState | None:
    """`state` with a legal reserve on standby at `f`'s origin (or where `positioned` says) in place of every
    member illegal when `f` leaves at `departure`, or None when a rank has no legal reserve (ORO.FTL.225 call-out
    from a covering standby; the reserve's duty checked from its own report by ``evaluate_swap_candidate``). The
    flight then leaves when it can without them (a sick member replaced no longer holds it), but never before the
    reserves can report — or, positioned, arrive and report. `replacing` ((crew id, rank) pairs): those members
    instead, whether the rules find them illegal or not (a member the report says is unfit or sick)."""
    illegal = [(c.crew_id, c.rank) for c in illegal_members(state, f, departure)] if replacing is None else replacing
    if not illegal:
        return None
    gone = {crew_id for crew_id, _ in illegal}
    trial = _without(state, f.flight_id, gone)
    timing = realize(trial, known).get(f.flight_id)
    if timing is None:
        return None
    if positioned is None:
        station, report = f.origin, call_out_report(now, timing.departure)
        leaves = max(timing.departure, report + REPORT_BEFORE_DEPARTURE)
    else:
        station, report, leaves = positioned.station, positioned.report, max(timing.departure, positioned.ready)
    rows = list(state.crew_on.get(f.flight_id, []))
    delay = max(0, _minutes(planned_departure(rows), leaves))
    rating = AIRCRAFT_TYPES[f.aircraft_type].rating_group
    on_board = {r.crew_id for r in rows}
    candidates = [
        state.members[r.crew_id]
        for r in standby_covering(station, report, standby.read)
        if r.crew_id in state.members and r.crew_id not in on_board and rating in state.members[r.crew_id].type_ratings
    ]
    chosen: dict[str, str] = {}
    for crew_id, rank in illegal:  # each replaced member's own duty is the template its reserve must fly
        template = duty_at_delay(state.rosters[crew_id], f.flight_id, delay)
        if positioned is not None:  # from where they stand by, on the ferry
            template = template.model_copy(update={"start_station": station})
        free = [m for m in candidates if m.crew_id not in chosen.values()]
        found, missing = legal_reserves(
            [(crew_id, rank)], free, lambda cid: state.rosters.get(cid, ()), template, report, RULES
        )
        if missing:
            return None
        chosen.update(found)
    replaced = {r.crew_id: r for r in rows if r.crew_id in chosen}
    called = {
        new: _reserve_rows(state.rosters[old], replaced[old], new, report, delay, by, station)
        for old, new in chosen.items()
    }
    crew_on = dict(state.crew_on)
    for old, new in chosen.items():  # the replaced member off the rest of their duty, the reserve on it
        for row in called[new]:
            fid = row.flight_id or ""
            crew_on[fid] = [r for r in crew_on.get(fid, ()) if r.crew_id != old] + [row]
    rosters = {
        **state.rosters,
        **{cid: [*called_out(state.rosters.get(cid, ()), report), *new] for cid, new in called.items()},
    }
    flights = state.flights
    if leaves > timing.departure:  # the reserves' report holds the flight: written as the decision's retime
        flights = retimed_in_sequence(state, f, leaves, by)
    return dataclasses.replace(state, flights=flights, crew_on=crew_on, rosters=rosters)


REST_SEARCH = timedelta(hours=36)  # how far the rested crew's report is searched (a night's rest and more)
REST_STEP = timedelta(minutes=30)


def _fresh_duty(f: Flight, row: CrewDuty, report: datetime, by: str) -> CrewDuty:
    """`row` (the member's sector on `f`) as a duty of its own reporting at `report`, the flight leaving the
    company's report time later: the sector the member flies after their rest."""
    leaves = report + REPORT_BEFORE_DEPARTURE
    fdp_end = leaves + timedelta(minutes=f.block_minutes)
    return row.model_copy(
        update={
            "duty_id": f"{by}:rested:{row.crew_id}:{f.flight_id}",
            "duty_start": report,
            "fdp_end": fdp_end,
            "duty_end": fdp_end + timedelta(minutes=RULES.post_flight_minutes),
            "sectors": 1,
            "block_minutes": f.block_minutes,
            "moved_minutes": _minutes(f.scheduled_departure, leaves),
            "updated_by_execution": by,
        }
    )


def _as_done(r: CrewDuty, flight_id: str, stood_down: datetime | None) -> CrewDuty:
    """`r`, or — the member's sector on the flight they will fly after their rest — a record of the duty they were
    on (no flight: it is flown in the new duty), ending when they were stood down if given (else as rostered)."""
    if r.flight_id != flight_id:
        return r
    ended = {} if stood_down is None else {"duty_end": stood_down, "fdp_end": None}
    return r.model_copy(update={"kind": "HISTORY", "flight_id": None, "flight_number": None, **ended})


def _stood_down(rows: Sequence[CrewDuty], seat: CrewDuty, now: datetime) -> datetime | None:
    """When a member whose duty is the flight alone stops being on duty once told to rest: at the decision, once
    reported (ORO.FTL.235 counts the duty performed), or a minute into the report not yet made (a crew told of
    the delay at rest: CS FTL.1.205(d)(1)(iii), a delay of 10 h or more is rest, which the rest rules then ask for).
    None for a duty of several sectors: its rostered release is kept (no earlier than the real one)."""
    if any(r.duty_id == seat.duty_id and r.flight_id != seat.flight_id for r in rows):
        return None
    return max(now, seat.duty_start + timedelta(minutes=1))


def _next_report(rows: Sequence[CrewDuty], seat: CrewDuty) -> datetime:
    """When the member's next flight duty after the one holding `seat` reports (far away when none is rostered)."""
    later = [
        r.duty_start
        for r in rows
        if r.kind == "FLIGHT" and r.duty_id != seat.duty_id and r.duty_start > seat.duty_start
    ]
    return min(later, default=datetime.max.replace(tzinfo=seat.duty_start.tzinfo))


def rested_crew(state: DayState, f: Flight, departure: datetime, now: datetime, by: str) -> DayState | None:
    """`state` with `f` re-timed to the earliest departure at which every member illegal when it leaves at
    `departure` may fly it as a new duty after their rest (ORO.FTL.235 rest after the duty they are on — the flight
    alone: until they are stood down (`_stood_down`); several sectors: to its rostered release, no earlier than the
    real one — then ORO.FTL.205 for the one sector), reporting
    no sooner than the call-out allows: "the inbound crew after its minimum rest". None: none within REST_SEARCH."""
    illegal = illegal_members(state, f, departure)
    if not illegal:
        return None
    seats = {
        c.crew_id: next((r for r in state.rosters[c.crew_id] if r.flight_id == f.flight_id), None) for c in illegal
    }
    if any(r is None for r in seats.values()):
        return None
    # the duty they were on stays in their record, the flight taken out of it: the rest is counted after it
    done = {
        cid: [_as_done(r, f.flight_id, _stood_down(state.rosters[cid], seat, now)) for r in state.rosters[cid]]
        for cid, seat in seats.items()
        if seat is not None
    }
    report = max(now + CALL_OUT, departure - REPORT_BEFORE_DEPARTURE)
    # never past a member's next duty: flown after it, the member would fly that duty from where they are not
    end = min([report + REST_SEARCH, *(_next_report(state.rosters[cid], seat) for cid, seat in seats.items() if seat)])
    while report <= end:
        fresh = {cid: _fresh_duty(f, seat, report, by) for cid, seat in seats.items() if seat is not None}
        rostered = {cid: [*done[cid], fresh[cid]] for cid in fresh}
        if all(
            is_legal(evaluate_duty(state.members[cid], rostered[cid], rostered_duty(rostered[cid], f.flight_id), RULES))
            for cid in fresh
        ):
            leaves = report + REPORT_BEFORE_DEPARTURE
            crew = [fresh.get(r.crew_id, r) for r in state.crew_on.get(f.flight_id, [])]
            return dataclasses.replace(
                state,
                flights=retimed_in_sequence(state, f, leaves, by),
                crew_on={**state.crew_on, f.flight_id: crew},
                rosters={**state.rosters, **rostered},
            )
        report += REST_STEP
    return None
