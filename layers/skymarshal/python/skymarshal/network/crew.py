"""Crewability of a network plan, its judgements: every operated flight's rostered crew checked by the rules engine
at the plan's times, and the legal standby reserves that may take a duty (the repair loop that calls them, and
re-plans the flights no legal crew can fly, is network.crewability).

A crew member is checked on the whole duty that holds the flight: the duty's operated sectors at their new times
(ORO.FTL.205 FDP from the report to the last on-blocks), cumulative limits (ORO.FTL.210) and rest before and after
(ORO.FTL.235) against their roster, type rating and recency. The report is the roster's, but for a duty whose first
sector the plan re-times and whose crew is still at rest more than the call-out notice after the decision: they are
told to report as much later (CS FTL.1.205(d) delayed reporting, as the single-flight plans' knock-on reports),
and the plan's row carries the moved report for execution. A member legal for the duty itself but left short of
rest before their next rostered duty (the ``crew.rest_after`` finding) flies it, and a reserve takes that next duty
(`cover_next_duty`); only without one is the flight re-planned. The duty's sectors must still chain: each leaves from
where the previous one landed, CREW_CONNECT after it (a sector the plan cancelled leaves the crew where they are).

A reserve (a STANDBY row at the duty's start station covering the report) takes the whole duty of the member they
replace, reporting at max(decision + call-out, first departure − report lead), checked by the same rules from their
own roster (CS FTL.1.225 standby call-out). No reserve is called out twice in one plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfoNotFoundError

from ..analysis.crew import HISTORY_DAYS
from ..data import queries as q
from ..models.airports import UnknownAirport
from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.network_plan import CrewChange, FlightAction
from ..models.operational import CrewDuty, CrewMember, Flight
from ..rules.crew import ProposedDuty, evaluate_duty, evaluate_swap_candidate, is_legal
from ..rules.standby import CALL_OUT, REPORT_BEFORE_DEPARTURE, standby_covering
from .plan_roster import Times, plan_times, report_shift, roster_under
from .totals import PlanData

CREW_CONNECT = timedelta(minutes=30)  # company policy: a crew changes aircraft within a duty in 30 min (verify)
NEXT_DUTY_RULE = "crew.rest_after"  # rules.crew: the rest after a duty before the member's next rostered one


@dataclass(frozen=True)
class DutyVerdict:
    """One crew member on one duty under a plan."""

    crew_id: str
    rank: str
    duty_id: str
    sectors: tuple[str, ...]  # the duty's operated flights, in order
    proposed: ProposedDuty | None  # None: every sector cancelled, the member is released
    findings: tuple[Finding, ...]
    out_of_position: str | None  # why the member cannot be at a sector's origin in time

    @property
    def legal(self) -> bool:
        return self.out_of_position is None and is_legal(self.findings)

    @property
    def short_of_rest_only(self) -> bool:
        """Legal for this duty itself, only short of rest before the next rostered one (ORO.FTL.235): that duty's
        question, answered by a reserve for it (`next_duty`), not by cancelling this one."""
        illegal = [f for f in self.findings if f.status == "illegal"]
        return self.out_of_position is None and bool(illegal) and all(f.rule == NEXT_DUTY_RULE for f in illegal)

    def reason(self) -> str:
        if self.out_of_position:
            return self.out_of_position
        bad = next(f for f in self.findings if f.status == "illegal")
        return f"{bad.clause}: {bad.message}"


@dataclass
class CrewData:
    """The roster reads of one run, shared by every plan (each is a Query or BatchGetItem on a key or GSI)."""

    data: PlanData
    decision: datetime
    _assignments: dict[str, list[CrewDuty]] = field(default_factory=dict)
    _members: dict[str, CrewMember | None] = field(default_factory=dict)
    _histories: dict[str, list[CrewDuty]] = field(default_factory=dict)
    _standby: dict[tuple[str, date], list[CrewDuty]] = field(default_factory=dict)
    _findings: dict[tuple, tuple[Finding, ...]] = field(default_factory=dict)

    def assignments(self, flight_id: str) -> list[CrewDuty]:
        if flight_id not in self._assignments:
            self._assignments[flight_id] = q.crew_assignments(self.data.handle, flight_id)
        return self._assignments[flight_id]

    def members(self, crew_ids: Iterable[str]) -> dict[str, CrewMember]:
        crew_ids = list(crew_ids)  # read twice: a generator passed in was spent by the first read (no verdicts)
        missing = sorted({c for c in crew_ids if c not in self._members})
        if missing:
            found = {m.crew_id: m for m in q.crew_members(self.data.handle, missing)}
            self._members.update({c: found.get(c) for c in missing})
        return {c: m for c in crew_ids if (m := self._members[c]) is not None}

    def history(self, crew_id: str) -> list[CrewDuty]:
        """The member's roster from the cumulative limits' look-back before the decision to three days after the
        last flight the run reads (a decision made days before the disruption still sees the duties it moves:
        reading only to the decision's next days left them out, and their crews unchecked)."""
        if crew_id not in self._histories:
            last = max((f.scheduled_departure for f in self.data.flights.values()), default=self.decision)
            self._histories[crew_id] = q.duty_history(
                self.data.handle,
                crew_id,
                self.decision - timedelta(days=HISTORY_DAYS),
                max(self.decision, last) + timedelta(days=3),
            )
        return self._histories[crew_id]

    def standby(self, station: str, day: date) -> list[CrewDuty]:
        if (station, day) not in self._standby:
            self._standby[(station, day)] = q.standby_crew(self.data.handle, station, day)
        return self._standby[(station, day)]

    def flight(self, flight_id: str) -> Flight | None:
        if flight_id not in self.data.flights:
            found = q.get_flight(self.data.handle, flight_id)
            if found is None:
                return None
            self.data.flights[flight_id] = found
        return self.data.flights[flight_id]

    def findings(
        self,
        member: CrewMember,
        proposed: ProposedDuty,
        report: datetime | None = None,
        times: Times | None = None,
        released: frozenset[str] = frozenset(),
    ) -> tuple[Finding, ...]:
        """The crew rules for `member` on `proposed` (as a reserve reporting at `report` when given) against their
        roster under the plan's `times`, less the duties a reserve takes from them (`released`; `roster_under`),
        memoised: the same duty at the same times against the same roster is the same answer in every plan and in
        the validation."""
        rows = self.history(member.crew_id)
        moved = tuple((r.flight_id, times[r.flight_id]) for r in rows if times and r.flight_id in times)
        key = (member.crew_id, proposed.model_dump_json(), report, moved, released)
        if key not in self._findings:
            history = roster_under(rows, times or {}, self.decision + CALL_OUT, released) if moved or released else rows
            found = (
                evaluate_swap_candidate(member, history, proposed, report)
                if report is not None
                else evaluate_duty(member, history, proposed)
            )
            self._findings[key] = tuple(found)
        return self._findings[key]


def duty_report(crew: CrewData, first: CrewDuty, times: Times) -> datetime:
    """When the member reports for the duty whose first sector is `first` under the plan (`report_shift`)."""
    return first.duty_start + report_shift(first, times, crew.decision + CALL_OUT)


def moved_reports(crew: CrewData, a: FlightAction, times: Times) -> dict[str, datetime]:
    """The rostered crew of a re-timed flight their duty starts with, told to report later (`duty_report`); a
    member a reserve replaces is not told anything."""
    if not a.operates or a.action == "ferry" or a.delay_minutes <= 0:
        return {}
    replaced = {c.replaced for c in a.crew_changes}
    out = {}
    for seat in crew.assignments(a.flight_id):
        if seat.kind != "FLIGHT" or seat.crew_id in replaced:
            continue
        duty = [r for r in crew.history(seat.crew_id) if r.duty_id == seat.duty_id and r.kind == "FLIGHT"]
        first = min(duty, key=lambda r: r.sector_departure or r.duty_start, default=None)
        at = duty_report(crew, first, times) if first is not None and first.flight_id == a.flight_id else None
        if first is not None and at is not None and at != first.duty_start:
            out[seat.crew_id] = at
    return out


def duty_verdict(
    crew: CrewData,
    member: CrewMember,
    rows: list[CrewDuty],
    times: Times,
    types: dict[str, str],
    released: frozenset[str] = frozenset(),
) -> DutyVerdict:
    """`member`'s duty (`rows`, its FLIGHT sectors) under the plan's times, their `released` duties not flown."""
    legs = sorted(
        (r for r in rows if r.kind == "FLIGHT" and r.flight_id), key=lambda r: r.sector_departure or r.duty_start
    )
    first = legs[0]
    operated: list[tuple[CrewDuty, Flight, datetime, datetime]] = []
    problem = None
    for row in legs:
        assert row.flight_id is not None  # filtered above
        flight = crew.flight(row.flight_id)
        scheduled = (row.sector_departure, row.sector_arrival) if row.sector_departure and row.sector_arrival else None
        when = times.get(row.flight_id, scheduled)
        if when is None or flight is None:
            continue
        departure, arrival = when
        if problem is None and operated:
            prev = operated[-1]
            moved = (prev[2], prev[3]) != (prev[0].sector_departure, prev[0].sector_arrival) or (
                departure,
                arrival,
            ) != (
                row.sector_departure,
                row.sector_arrival,
            )
            if flight.origin != prev[1].destination:
                problem = f"{member.crew_id} lands at {prev[1].destination} with {prev[1].flight_number}, not at {flight.origin} for {flight.flight_number}"
            elif moved and departure < prev[3] + CREW_CONNECT:
                problem = f"{member.crew_id} lands with {prev[1].flight_number} at {prev[3]:%H:%MZ}, too late for {flight.flight_number} at {departure:%H:%MZ}"
        elif problem is None and flight.origin != first.start_station:
            problem = (
                f"{member.crew_id} reports at {first.start_station}, not at {flight.origin} for {flight.flight_number}"
            )
        operated.append((row, flight, departure, arrival))
    sectors = tuple(f.flight_id for _, f, _, _ in operated)
    if not operated:
        return DutyVerdict(member.crew_id, member.rank, first.duty_id, (), None, (), None)
    last = operated[-1]
    tail = (first.duty_end - first.fdp_end) if first.fdp_end else timedelta(minutes=30)
    pilots = first.pilots_on_board or 2
    on_blocks = max(a for _, _, _, a in operated)  # a plan out of the roster's order is the chain's problem, above
    report = duty_report(crew, first, times) if operated[0][0] is first else first.duty_start
    proposed = ProposedDuty(
        report=min(report, operated[0][2]),
        fdp_end=on_blocks,
        release=on_blocks + tail,
        sectors=len(operated),
        aircraft_type=types.get(operated[0][1].flight_id, first.aircraft_type or operated[0][1].aircraft_type),
        pilots_on_board=pilots,
        rest_facility_class=1 if pilots > 2 else None,
        start_station=operated[0][1].origin,
        end_station=last[1].destination,
        block_minutes=sum(r.block_minutes for r, _, _, _ in operated),
        duty_id=first.duty_id,
        label="/".join(f.flight_number for _, f, _, _ in operated),
    )
    return DutyVerdict(
        member.crew_id,
        member.rank,
        first.duty_id,
        sectors,
        proposed,
        crew.findings(member, proposed, times=times, released=released),
        problem,
    )


def verdicts(crew: CrewData, actions: Sequence[FlightAction]) -> list[DutyVerdict]:
    """Every crew member of every operated plan flight (ferries aside), on their whole duty, under the plan."""
    times = plan_times(actions)
    types = {a.flight_id: a.aircraft_type for a in actions}
    duties: dict[tuple[str, str], None] = {}
    for a in actions:
        if a.operates and a.action != "ferry":
            for row in crew.assignments(a.flight_id):
                duties[(row.crew_id, row.duty_id)] = None
    members = crew.members(c for c, _ in duties)
    gone = released_duties(crew, actions)
    out = []
    for crew_id, duty_id in duties:
        member = members.get(crew_id)
        if member is None:
            continue  # validation names it (DATA_MISSING)
        rows = [r for r in crew.history(crew_id) if r.duty_id == duty_id]
        if rows:
            out.append(duty_verdict(crew, member, rows, times, types, gone.get(crew_id, frozenset())))
    return out


def rejudged(
    crew: CrewData, v: DutyVerdict, times: Times, types: dict[str, str], released: frozenset[str]
) -> DutyVerdict:
    """`v`'s member on the same duty again, the `released` duties a reserve has since taken from them not flown."""
    member = crew.members([v.crew_id]).get(v.crew_id)
    rows = [r for r in crew.history(v.crew_id) if r.duty_id == v.duty_id]
    return duty_verdict(crew, member, rows, times, types, released) if member and rows else v


def released_duties(crew: CrewData, actions: Sequence[FlightAction]) -> dict[str, frozenset[str]]:
    """Crew id → the duties the plan's reserves take from them (a change on a sector: the duty holding it)."""
    out: dict[str, set[str]] = {}
    for a in actions:
        for c in a.crew_changes:
            if c.replaced:
                duty = next((r.duty_id for r in crew.assignments(a.flight_id) if r.crew_id == c.replaced), None)
                if duty is not None:
                    out.setdefault(c.replaced, set()).add(duty)
    return {k: frozenset(v) for k, v in out.items()}


def next_duty(crew: CrewData, v: DutyVerdict, times: Times, types: dict[str, str]) -> DutyVerdict | None:
    """The member's next rostered flight duty after `v`'s, judged under the plan's times (None: none rostered)."""
    member = crew.members([v.crew_id]).get(v.crew_id)
    if member is None or v.proposed is None:
        return None
    later = [r for r in crew.history(v.crew_id) if r.kind == "FLIGHT" and r.flight_id and r.duty_id != v.duty_id]
    later = [r for r in later if r.duty_start > v.proposed.report]
    if not later:
        return None
    first = min(later, key=lambda r: r.duty_start)
    verdict = duty_verdict(crew, member, [r for r in later if r.duty_id == first.duty_id], times, types)
    return verdict if verdict.sectors else None


def cover_next_duty(
    crew: CrewData, v: DutyVerdict, times: Times, types: dict[str, str], used: set[str]
) -> tuple[str, str, CrewChange] | None:
    """(the next duty's id, its first sector, the change) calling a legal reserve out for the member's next rostered
    duty, which the plan's delay leaves them short of rest before; None when there is none to call."""
    following = next_duty(crew, v, times, types)
    if following is None:
        return None
    sector = following.sectors[0]
    when = times.get(sector)
    flight = crew.flight(sector)
    departure = when[0] if when else flight.scheduled_departure if flight else None
    found = find_reserve(crew, following, departure, used, times) if departure is not None else None
    if found is None:
        return None
    change = CrewChange(rank=v.rank, replaced=v.crew_id, reserve=found[0], report_at=found[1], reason=v.reason())
    return following.duty_id, sector, change


def rest_shortfall(v: DutyVerdict) -> int:
    """Minutes the rest after `v`'s duty falls short of the minimum before the next rostered duty (ORO.FTL.235)."""
    return max(
        (-(f.margin_minutes or 0) for f in v.findings if f.status == "illegal" and f.rule == NEXT_DUTY_RULE), default=0
    )


def later_next_duty(crew: CrewData, v: DutyVerdict, times: Times, types: dict[str, str]) -> tuple[str, int] | None:
    """(the next duty's first sector, minutes) to re-time it by so the member has the minimum rest before it: the
    duty then reports as much later (CS FTL.1.205(d)), which only a member still at rest past the call-out notice
    can be told; None otherwise."""
    following = next_duty(crew, v, times, types)
    short = rest_shortfall(v)
    if following is None or following.proposed is None or short <= 0:
        return None
    if following.proposed.report <= crew.decision + CALL_OUT:
        return None
    return following.sectors[0], 5 * -(-short // 5)  # to the next five minutes, as a schedule is published


def reserve_report(crew: CrewData, proposed: ProposedDuty, first_departure: datetime) -> datetime:
    return max(crew.decision + CALL_OUT, first_departure - REPORT_BEFORE_DEPARTURE)


def find_reserve(
    crew: CrewData, verdict: DutyVerdict, first_departure: datetime, used: set[str], times: Times | None = None
) -> tuple[str, datetime] | None:
    """A legal reserve of the member's rank, rated on the type, on standby at the duty's start station when called."""
    proposed = verdict.proposed
    assert proposed is not None and proposed.start_station is not None
    report = reserve_report(crew, proposed, first_departure)
    station = proposed.start_station
    try:
        rows = standby_covering(station, report, crew.standby)
    except (UnknownAirport, ZoneInfoNotFoundError):  # outside the reference: no standby can be placed in its day
        return None
    rating = (
        AIRCRAFT_TYPES[proposed.aircraft_type].rating_group
        if proposed.aircraft_type in AIRCRAFT_TYPES
        else proposed.aircraft_type
    )
    on_call = sorted({r.crew_id for r in rows} - used)
    for member in crew.members(on_call).values():
        if member.rank != verdict.rank or rating not in member.type_ratings or member.status != "ACTIVE":
            continue
        if is_legal(crew.findings(member, proposed, report, times)):
            return member.crew_id, report
    return None
