"""SkyMarshal's rosters as crew pairings of the recovery model (`model.CrewPairing`), the rules engine deciding
how late each leg may leave.

A pairing is the members rostered on the same legs of one duty (a cockpit and a cabin crew flying together are
two pairings when their duties differ). Its slack on a leg is the tightest member's latest legal delay of the duty
that holds the leg — `rules.crew.latest_legal_delay` over `rules.rostered.rostered_duty`, the same duty and the
same functions the day's scorecard (`rules.rostered.flight_crew_legality`) and the crew agent judge by: the report
is kept, the FDP runs to the delayed last on-blocks (ORO.FTL.205), cumulative duty (ORO.FTL.210) and the rest
before the member's next duty (ORO.FTL.235) follow. A delay an execution already wrote into the roster
(`CrewDuty.moved_minutes`) is added back, as `duty_at_delay` does. Nothing is re-implemented here.
A member the rules find illegal even on time gets no slack (0): the plan may fly the leg on time, never later.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..models.operational import CrewDuty, CrewMember
from ..rules.crew import ProposedDuty, evaluate_delay, is_legal, latest_legal_delay
from ..rules.rostered import rostered_duty
from .model import CrewPairing, DatedFlightRef, Instance

CREW_CONNECT_MINUTES = 30  # company policy: a crew changes aircraft within a duty in 30 min (network/crew.py)
# No recovery plan delays a leg half a day (the search's longest hold is 15 h, for flights nobody booked): a duty
# still legal that late is given this much, which keeps each bisection to ten evaluations of the rules.
HORIZON_MINUTES = 12 * 60

Crew = tuple[CrewMember, Sequence[CrewDuty]]  # a member and their roster


def _legal(crew: Crew, duty: ProposedDuty, delay: int) -> bool:
    return is_legal(evaluate_delay(crew[0], crew[1], duty, delay))


def joint_slack(crews: Sequence[Crew], flight_id: str) -> tuple[int, str]:
    """(the most minutes the duty holding `flight_id` may run late with every member legal, who binds).

    Per member `rules.crew.latest_legal_delay`'s bisection (legality is only lost as a duty grows), run only where
    the member is illegal at the slack found so far: one evaluation for a member at least as loose as the others,
    so a crew of 15 costs about 25 evaluations of the rules, not 150."""
    slack, binding = HORIZON_MINUTES, ""
    for crew in crews:
        duty = rostered_duty(crew[1], flight_id)
        if _legal(crew, duty, slack):
            continue
        latest = latest_legal_delay(crew[0], crew[1], duty, horizon_minutes=slack)
        slack, binding = (0, f"{crew[0].crew_id} already as rostered") if latest is None else (latest, crew[0].crew_id)
        if slack == 0:
            break
    return slack, binding


def why_illegal(crew: Crew, flight_id: str, delay: int) -> str:
    """The clause that makes `crew`'s duty illegal at `delay` (for a refusal's one line)."""
    bad = next(
        (
            f
            for f in evaluate_delay(crew[0], crew[1], rostered_duty(crew[1], flight_id), delay)
            if f.status == "illegal"
        ),
        None,
    )
    return f"{crew[0].crew_id} {bad.clause}: {bad.message}" if bad else crew[0].crew_id


def crew_pairings(
    instance: Instance,
    numbers: Mapping[str, int],
    crew_on: Mapping[str, Sequence[CrewDuty]],
    rosters: Mapping[str, Sequence[CrewDuty]],
    members: Mapping[str, CrewMember],
) -> list[CrewPairing]:
    """The pairings flying the instance's flights (`numbers`: SkyMarshal flight id → the instance's number).
    A member whose roster or record is missing is left out (no data is no limit the rules can compute: the
    scorecard skips them the same way)."""
    day_of = {ref.number: ref.day for ref, _ in instance.rotations}
    duties: dict[tuple[str, str], None] = {}
    for flight_id in numbers:
        for row in crew_on.get(flight_id, ()):
            if row.kind == "FLIGHT":
                duties[(row.crew_id, row.duty_id)] = None
    groups: dict[tuple[str, ...], list[tuple[Crew, str, tuple[int, ...]]]] = defaultdict(list)
    for crew_id, duty_id in duties:
        member, roster = members.get(crew_id), rosters.get(crew_id)
        if member is None or not roster:
            continue
        legs = sorted(
            (r for r in roster if r.duty_id == duty_id and r.kind == "FLIGHT" and r.flight_id in numbers),
            key=lambda r: r.sector_departure or r.duty_start,
        )
        if legs:
            key = tuple(r.flight_id for r in legs if r.flight_id)
            groups[key].append(((member, roster), duty_id, tuple(r.moved_minutes for r in legs)))
    out = []
    for key, found in sorted(groups.items()):
        slack, binding = joint_slack([c for c, _, _ in found], key[0])
        moved = tuple(min(m[i] for _, _, m in found) for i in range(len(key)))  # already delayed by an execution
        refs = tuple(DatedFlightRef(number=numbers[fid], day=day_of[numbers[fid]]) for fid in key)
        out.append(
            CrewPairing(
                id=f"{found[0][1]}+{len(found) - 1}",
                legs=refs,
                start_airport=instance.flights[refs[0].number].origin,
                slack=tuple(slack + m for m in moved),
                connect=CREW_CONNECT_MINUTES,
                why=binding,
            )
        )
    return out


def with_crews(
    instance: Instance,
    numbers: Mapping[str, int],
    crew_on: Mapping[str, Sequence[CrewDuty]],
    rosters: Mapping[str, Sequence[CrewDuty]],
    members: Mapping[str, CrewMember],
) -> Instance:
    """The instance with its crews as resources."""
    return instance.model_copy(update={"crews": tuple(crew_pairings(instance, numbers, crew_on, rosters, members))})


def flights_by_pairing(pairings: Sequence[CrewPairing]) -> dict[tuple[int, int], list[CrewPairing]]:
    """(number, day) → the pairings flying it."""
    out: dict[tuple[int, int], list[CrewPairing]] = defaultdict(list)
    for p in pairings:
        for ref in p.legs:
            out[(ref.number, ref.day)].append(p)
    return dict(out)
