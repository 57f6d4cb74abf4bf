"""Who flies a diverted flight on from its alternate, by the crew rules (rules.crew), never by judgement:

- in duty: the rostered crew fly the continuation in the duty they are on, one sector more: the FDP runs from
  their report to the continuation's on-blocks and the maximum FDP is the one for one sector more (ORO.FTL.205(b),
  the table falls with the sectors); the rest before their next rostered duty is counted from the new release
  (ORO.FTL.235);
- after the minimum rest: they stand down at the alternate (their duty ends there) and report again once every one
  of them has had the minimum rest after it (ORO.FTL.235(a)/(b): the greater of the preceding duty and 10 h away
  from base, 12 h at it), for a new one-sector duty from the alternate;
- reserves: a member who may not is replaced by a reserve on standby at the alternate whose standby covers the
  report (CS FTL.1.225), legal for the one-sector duty (``crew_chain.reserve_for``).

Each member's findings name the clause; validation refuses a plan with one illegal finding (CREW_ILLEGAL, or
CREW_CHAIN_BROKEN when it is the rest before the next rostered duty).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ...data import queries as q
from ...models.findings import Finding
from ...models.operational import CrewDuty, CrewMember
from ...rules.crew import ProposedDuty, evaluate_duty, evaluate_swap_candidate
from ...rules.ftl_easa_limits import min_rest_minutes
from ...rules.rostered import duty_at_delay, rostered_duty
from ..actions import ContinueFlight, ReassignCrew
from ..context import DisruptionContext
from ..crew.chain import NEXT_DUTY_RULE, next_duty
from ..crew.moved_duty import Moves, moved
from ..crew.rest import recrew_next_duty
from ..crew.stand_down import stood_down as stood_down_record
from ..memo_keys import ContinuationInDuty, ContinuationOnboard, ContinuationRested

POST_FLIGHT = timedelta(minutes=30)  # release after on blocks (rules.crew.OperatorRules.post_flight_minutes)


@dataclass(frozen=True)
class Onboard:
    """The diverted flight's rostered crew: each member, their roster and the row of the diverted sector."""

    members: dict[str, CrewMember]
    rows: dict[str, list[CrewDuty]]
    seats: dict[str, CrewDuty]


def onboard(ctx: DisruptionContext) -> Onboard | None:
    """The flight's crew as rostered (None: no roster, or a member missing from CrewMembers: validation of the
    other plans names it; no continuation is built without knowing who would fly it)."""

    def read() -> Onboard | None:
        f = ctx.flight
        seats = {a.crew_id: a for a in q.crew_assignments(ctx.handle, f.flight_id)}
        members = {m.crew_id: m for m in q.crew_members(ctx.handle, sorted(seats))}
        if not seats or set(members) != set(seats):
            return None
        rows = {c: ctx.roster(c, f.scheduled_departure) for c in sorted(seats)}
        return Onboard(members, rows, seats)

    return ctx.memo(ContinuationOnboard(), read)


def one_sector(leg: ContinueFlight, report: datetime, label: str, pilots: int = 2) -> ProposedDuty:
    """The continuation as a duty of its own: report at the alternate, one sector to the destination, with the
    flight's own complement of pilots (an augmented crew keeps its in-flight rest, CS FTL.1.205(c))."""
    return ProposedDuty(
        report=report,
        fdp_end=leg.arrival,
        sectors=1,
        aircraft_type=leg.aircraft_type,
        pilots_on_board=pilots,
        rest_facility_class=1 if pilots > 2 else None,
        start_station=leg.origin,
        end_station=leg.destination,
        block_minutes=int((leg.arrival - leg.departure).total_seconds() // 60),
        label=label,
    )


def next_duty_moves(ctx: DisruptionContext, crew: Onboard, leg: ContinueFlight, delays: dict[str, int]) -> Moves:
    """Each rostered member flying the leg whose next rostered duty starts on a flight the plan re-times (the tail's
    next flight, by the knock-on): that duty reports as much later (a RestCrew on it), so the rest before it is
    counted to where it now is (ORO.FTL.235), not to the roster's unmoved report."""
    out: Moves = {}
    for crew_id in sorted(c for c in leg.crew if c in crew.seats):
        found = next_duty(ctx, crew_id, ctx.flight)
        if found is not None and delays.get(found[0], 0) > 0:
            out[crew_id] = (found[0], timedelta(minutes=delays[found[0]]))
    return out


def in_duty(
    ctx: DisruptionContext, crew: Onboard, crew_id: str, leg: ContinueFlight, moves: Moves | None = None
) -> list[Finding]:
    """The member's duty holding the diverted sector with the continuation added: one sector more, on blocks (and
    the duty's later sectors) as late as the continuation lands after the flight's scheduled arrival."""
    f, rows = ctx.flight, moved(crew.rows[crew_id], crew_id, moves or {})
    late = max(0, int((leg.arrival - f.scheduled_arrival).total_seconds() // 60))
    duty = duty_at_delay(rows, f.flight_id, late)
    # the diverted sector counts what it flew (off blocks to landing at the alternate), not its planned block
    flown = max(0, int((f.arrival - f.departure).total_seconds() // 60)) - crew.seats[crew_id].block_minutes
    block = flown + int((leg.arrival - leg.departure).total_seconds() // 60)
    longer = duty.model_copy(
        update={
            "sectors": duty.sectors + 1,
            "fdp_end": max(duty.fdp_end, leg.arrival),
            "release": None if duty.release is None else max(duty.release, leg.arrival + POST_FLIGHT),
            "block_minutes": (duty.block_minutes or 0) + block,
            "label": f"{duty.label or f.flight_number} + {leg.origin}-{leg.destination}",
        }
    )
    key = ContinuationInDuty(crew_id, leg.arrival, (moves or {}).get(crew_id))
    return ctx.memo(key, lambda: evaluate_duty(crew.members[crew_id], rows, longer))


def stood_down(ctx: DisruptionContext, crew: Onboard, crew_id: str, at: datetime) -> tuple[list[CrewDuty], int]:
    """The member's roster with the duty holding the diverted sector ending at the alternate at `at` (its later
    sectors no longer theirs), and the minutes of that duty (what the minimum rest is counted over)."""
    rows, seat = crew.rows[crew_id], crew.seats[crew_id]
    record = stood_down_record(rows, ctx.flight.flight_id, at, ctx.flight.diverted_to)
    if record is None:  # not reported yet: nothing to rest from
        return rows, 0
    kept = [r for r in rows if r.duty_id != seat.duty_id]
    return [*kept, record], int((at - record.duty_start).total_seconds() // 60)


def rested_from(ctx: DisruptionContext, crew: Onboard, crew_id: str, at: datetime) -> datetime:
    """When the member may report again after standing down at the alternate at `at` (ORO.FTL.235(a)/(b))."""
    _, minutes = stood_down(ctx, crew, crew_id, at)
    home = (ctx.flight.diverted_to or "") == crew.members[crew_id].base
    return at + timedelta(minutes=min_rest_minutes(minutes, home))


def pilots(crew: Onboard) -> int:
    """The pilots the flight is rostered with (more than two: an augmented crew)."""
    return max((seat.pilots_on_board or 2 for seat in crew.seats.values()), default=2)


def after_rest(
    ctx: DisruptionContext,
    crew: Onboard,
    crew_id: str,
    leg: ContinueFlight,
    stood_at: datetime,
    moves: Moves | None = None,
) -> list[Finding]:
    """The member reporting at `leg.reports[crew_id]` for the continuation, a new duty after standing down."""
    history = moved(stood_down(ctx, crew, crew_id, stood_at)[0], crew_id, moves or {})
    label = f"{ctx.flight.flight_number} {leg.origin}-{leg.destination}"
    duty = one_sector(leg, leg.reports[crew_id], label, pilots(crew))
    key = ContinuationRested(crew_id, leg.reports[crew_id], stood_at, (moves or {}).get(crew_id))
    return ctx.memo(key, lambda: evaluate_duty(crew.members[crew_id], history, duty))


def reserve(ctx: DisruptionContext, reserve_id: str, leg: ContinueFlight, crew: Onboard) -> list[Finding]:
    """A reserve on standby at the alternate flying the continuation, reporting at their report."""
    member = q.crew_members(ctx.handle, [reserve_id])
    if not member:
        raise LookupError(f"reserve {reserve_id} is not in CrewMembers")
    report = leg.reports[reserve_id]
    history = ctx.roster(reserve_id, report)
    duty = one_sector(leg, report, f"{ctx.flight.flight_number} {leg.origin}-{leg.destination}", pilots(crew))
    return evaluate_swap_candidate(member[0], history, duty, report)


def findings_for(
    ctx: DisruptionContext,
    crew: Onboard,
    crew_id: str,
    leg: ContinueFlight,
    stood_at: datetime,
    moves: Moves | None = None,
):
    """The member's findings for flying `leg` as the leg has them: in duty, after the rest, or as a reserve."""
    if crew_id in leg.in_duty:
        return in_duty(ctx, crew, crew_id, leg, moves)
    if crew_id in leg.called_out:
        return reserve(ctx, crew_id, leg, crew)
    return after_rest(ctx, crew, crew_id, leg, stood_at, moves)


def moved_duty(
    ctx: DisruptionContext, crew: Onboard, crew_id: str, leg: ContinueFlight, stood_at: datetime, moves: Moves
) -> list[Finding]:
    """The member's next duty at its moved report, after the continuation they fly (in duty or rested): its FDP and
    the rest before it by the crew rules."""
    flight_id, _ = moves[crew_id]
    seat = crew.seats[crew_id]
    rows = moved(crew.rows[crew_id], crew_id, moves)
    if crew_id in leg.in_duty:  # the duty they are on ends at the continuation's release
        start, duty_id = seat.duty_start, seat.duty_id
    else:
        rows = moved(stood_down(ctx, crew, crew_id, stood_at)[0], crew_id, moves)
        start, duty_id = leg.reports[crew_id], f"{seat.duty_id}-continued"
    flown = CrewDuty(
        crew_id=crew_id,
        duty_key=f"{start.isoformat()}#CONTINUED#",
        duty_id=duty_id,
        kind="HISTORY",
        duty_start=start,
        duty_end=leg.arrival + POST_FLIGHT,
        fdp_end=leg.arrival,
        start_station=leg.origin,
        end_station=leg.destination,
    )
    duty = rostered_duty(rows, flight_id)
    return evaluate_duty(crew.members[crew_id], [*rows, flown], duty)


def next_duty_recrews(
    ctx: DisruptionContext,
    crew: Onboard,
    leg: ContinueFlight,
    stood_at: datetime,
    taken: set[str],
    moves: Moves | None = None,
) -> list[ReassignCrew]:
    """A reserve for the next rostered duty of each rostered member the continuation leaves short of rest before it
    (ORO.FTL.235: the ``crew.rest_after`` finding), on standby at that duty's station and legal for it by the same
    rules (``crew_chain.reserve_for``); a member with none is left for validation to name."""
    out = []
    for crew_id in sorted(c for c in leg.crew if c not in leg.called_out):
        if not any(
            x.status == "illegal" and x.rule == NEXT_DUTY_RULE
            for x in findings_for(ctx, crew, crew_id, leg, stood_at, moves)
        ):
            continue
        recrew = recrew_next_duty(ctx, crew_id, taken)
        out += [recrew] if recrew else []
    return out
