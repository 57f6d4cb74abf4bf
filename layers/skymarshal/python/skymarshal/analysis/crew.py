"""Crew compliance: legality of the rostered crew at the current delay, the latest legal delay, and
legal reserves on standby for a crew swap (CrewRoster and CrewMembers through the data handle)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from ..data import queries as q
from ..data.access import DataHandle
from ..models.agent_response import CrewConstraint, RecoveryProposal
from ..models.common import iso_z
from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CrewDuty, Flight
from ..rules.crew import OperatorRules, ProposedDuty, evaluate_swap_candidate, is_legal, latest_legal_delay
from ..rules.ferry import FERRY_RANKS
from ..rules.rostered import CrewLegality, duty_at_delay, flight_crew_legality
from ..rules.standby import CALL_OUT, REPORT_BEFORE_DEPARTURE, call_out_report, legal_reserves, standby_covering
from .base import Analysis, decision_time, sources

HISTORY_DAYS = 366  # ORO.FTL.210's longest look-back is 12 months of flight time
CONSTRAINT_TYPE = {
    "crew.max_fdp": "duty_limit",
    "crew.cumulative": "duty_limit",
    "crew.rest_after": "next_duty_rest",  # before "crew.rest": the first prefix that matches names the type
    "crew.rest": "rest_required",
    "crew.recency": "recency",
    "crew.type_qualification": "qualification",
    "crew.availability": "availability",  # the roster status: sick, unfit, on leave
}


def standby_at(handle: DataHandle, station: str, report: datetime) -> list[CrewDuty]:
    """`standby_covering`, each day read from the roster's standby index."""
    return standby_covering(station, report, lambda at, day: q.standby_crew(handle, at, day))


def roster_window(around: datetime) -> tuple[datetime, datetime]:
    """The roster read around a moment: the cumulative limits' look-back before it and at least three days after,
    in whole UTC days. Every read around the same day is then one query (one cached answer, one memo entry for a
    member); the few hours more either side only add duties a check must see anyway."""
    day = around.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    return day - timedelta(days=HISTORY_DAYS), day + timedelta(days=4)


def _week_window(around: datetime) -> tuple[datetime, datetime]:
    """`roster_window` for every moment of `around`'s UTC week (Monday to Sunday) at once: the look-back before its
    Monday, and at least three days after its Sunday."""
    day = around.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    monday = day - timedelta(days=day.weekday())
    return monday - timedelta(days=HISTORY_DAYS), monday + timedelta(days=7 + 4)


def _rosters(handle: DataHandle, crew_ids: list[str], around: datetime) -> dict:
    start, end = roster_window(around)
    if handle.cache is None:
        return {crew_id: q.duty_history(handle, crew_id, start, end) for crew_id in crew_ids}
    # With a read cache (one decision's reads), a member's roster is read once for the week and each window cut from
    # it as its own Query would answer it (BETWEEN on duty_key): reads around the day before, the day and the day
    # after were three Queries of a year's roster each.
    wide_start, wide_end = _week_window(around)
    low, high = iso_z(start), iso_z(end)
    return {
        crew_id: [r for r in q.duty_history(handle, crew_id, wide_start, wide_end) if low <= r.duty_key <= high]
        for crew_id in crew_ids
    }


def member_roster(handle: DataHandle, crew_id: str, around: datetime) -> list:
    """One member's roster rows around `around`: the year the cumulative limits look back and the days after."""
    return _rosters(handle, [crew_id], around)[crew_id]


def rostered_crew(handle: DataHandle, flight: Flight):
    """The flight's roster rows, its members, and each member's roster around it (independent of any delay)."""
    assignments = q.crew_assignments(handle, flight.flight_id)
    members = q.crew_members(handle, sorted({a.crew_id for a in assignments}))
    return assignments, members, _rosters(handle, [m.crew_id for m in members], flight.scheduled_departure)


def crew_legality(
    handle: DataHandle, flight: Flight, delay_minutes: int | None = None, rules: OperatorRules = OperatorRules()
) -> list[CrewLegality]:
    """Each rostered crew member of `flight` at `delay_minutes` (default: the flight's current delay)."""
    _, members, rosters = rostered_crew(handle, flight)
    delay = flight.delay_minutes if delay_minutes is None else delay_minutes
    return flight_crew_legality(flight.flight_id, members, rosters, delay, rules)


def _constraint_type(finding: Finding) -> str:
    return next((v for k, v in CONSTRAINT_TYPE.items() if finding.rule.startswith(k)), "duty_limit")


def analyse_crew(
    handle: DataHandle,
    flight: Flight,
    *,
    now: datetime | None = None,
    delay_minutes: int | None = None,
    rules: OperatorRules = OperatorRules(),
) -> Analysis:
    delay = flight.delay_minutes if delay_minutes is None else delay_minutes
    at = decision_time(flight, now)
    assignments, members, rosters = rostered_crew(handle, flight)
    results = flight_crew_legality(flight.flight_id, members, rosters, delay, rules)
    analysis = Analysis(
        agent="crew_compliance",
        recommendation="",
        inputs_expected=2,
        inputs_present=int(bool(assignments)) + int(len(members) == len({a.crew_id for a in assignments})),
        delay_assumed_minutes=delay,
    )
    illegal = [r for r in results if not r.legal]
    for result in results:
        analysis.findings.extend(f for f in result.findings if f.status != "legal")
    for result in illegal:
        for finding in (f for f in result.findings if f.binding):
            analysis.constraints.append(
                CrewConstraint(
                    constraint_type=(kind := _constraint_type(finding)),
                    affected_crew=[result.crew_id],
                    restriction=(
                        f"{result.name} ({result.position}) may operate {flight.flight_number} only if their next duty "
                        f"is re-crewed or moved: {finding.message}"
                        if kind == "next_duty_rest"
                        else f"{result.name} ({result.position}) may not operate {flight.flight_number}: {finding.message}"
                    ),
                    reasoning=f"{finding.clause}: limit {finding.limit} {finding.unit}, actual {finding.actual}",
                    illegal_from_delay_minutes=delay,
                )
            )
    legal_now = [m for m in members if m.crew_id not in {r.crew_id for r in illegal}]
    latest = [
        latest_legal_delay(m, rosters[m.crew_id], duty_at_delay(rosters[m.crew_id], flight.flight_id, 0), rules)
        for m in legal_now
    ]
    known = [v for v in latest if v is not None]
    if legal_now and len(known) == len(latest):
        bound = min(known)
        off_blocks = flight.scheduled_departure + timedelta(minutes=bound)
        analysis.constraints.append(
            CrewConstraint(
                constraint_type="duty_limit",
                affected_crew=[m.crew_id for m in legal_now],
                restriction=f"the rostered crew can take a delay of at most {bound} min (off blocks by {off_blocks:%H:%MZ})",
                reasoning="largest delay with no illegal finding for every rostered member (ORO.FTL.205/210/235)",
                max_delay_minutes=bound,
            )
        )
        analysis.facts.append(f"The rostered crew stays legal up to a {bound}-minute delay.")
        analysis.limits.append(
            f"Rostered crew of {flight.flight_number}: delay at most {bound} min "
            f"(off blocks by {off_blocks:%Y-%m-%d %H:%MZ}) [ORO.FTL.205/210/235]"
        )
    analysis.facts.insert(
        0, f"{len(results)} crew rostered on {flight.flight_id}; {len(illegal)} illegal at a {delay}-minute delay."
    )
    if illegal:
        swap = _reserve_swap(handle, flight, illegal, rosters, at, delay, rules)
        analysis.facts.append(swap["fact"])
        if swap["proposal"]:
            analysis.proposals.append(swap["proposal"])
        else:  # every refusal of a plan keeping them says why no reserve can take their place
            analysis.constraints = [
                c.model_copy(update={"restriction": f"{c.restriction}; {swap['fact']}"})
                if isinstance(c, CrewConstraint) and c.max_delay_minutes is None
                else c
                for c in analysis.constraints
            ]
        analysis.recommendation = (
            f"Crew swap: {len(illegal)} of {len(results)} crew cannot legally operate "
            f"{flight.flight_number} at a {delay}-minute delay; " + swap["fact"]
        )
    else:
        analysis.recommendation = f"The rostered crew of {flight.flight_number} is legal at a {delay}-minute delay" + (
            f"; any plan must keep the delay within {min(known)} min." if latest and None not in latest else "."
        )
    analysis.data_sources = sources(handle)
    return analysis


def _reserve_swap(
    handle, flight, illegal: list[CrewLegality], rosters, at, delay, rules, ready_from: datetime | None = None
) -> dict:
    """Legal reserves on standby at the departure base, matched rank for rank to the illegal members. `ready_from`:
    the earliest the flight may leave (a cause that may clear before the planned departure) — the reserves report
    to be ready then, so the flight can go when the cause clears, where they are legal for the duty from that
    report; else they report for the planned departure."""
    departure = flight.scheduled_departure + timedelta(minutes=delay)
    rating = AIRCRAFT_TYPES[flight.aircraft_type].rating_group
    template = duty_at_delay(rosters[illegal[0].crew_id], flight.flight_id, delay)
    readied = call_out_report(at, min(departure, ready_from or departure))
    for report in dict.fromkeys([readied, call_out_report(at, departure)]):  # the earlier report first
        standby = standby_at(handle, flight.origin, report)
        reserves = [m for m in q.crew_members(handle, sorted({r.crew_id for r in standby})) if rating in m.type_ratings]
        replacements, unfilled = legal_reserves(
            [(r.crew_id, r.rank) for r in illegal],
            reserves,
            lambda crew_id: member_roster(handle, crew_id, flight.scheduled_departure),
            template,
            report,
            rules,
        )
        if not unfilled:
            break
    rank = {r.crew_id: r.rank for r in illegal}
    missing = [f"{rank[crew_id]} for {crew_id}" for crew_id in unfilled]
    checked = len(reserves)
    if missing:
        return {
            "fact": f"{checked} {rating}-rated reserves on standby at {flight.origin} checked; no legal reserve for "
            + ", ".join(missing)
            + ".",
            "proposal": None,
        }
    return {
        "fact": f"{checked} {rating}-rated reserves on standby at {flight.origin} checked; legal replacements exist for all "
        f"{len(replacements)} (reporting {report:%H:%MZ}).",
        "proposal": RecoveryProposal(
            kind="crew_swap",
            title=f"Swap {len(replacements)} crew with legal standby reserves",
            detail=f"Reserves report at {report:%Y-%m-%d %H:%MZ}"
            + (
                f", ready from {report + REPORT_BEFORE_DEPARTURE:%H:%MZ} should the cause clear before {departure:%H:%MZ}"
                if report + REPORT_BEFORE_DEPARTURE < departure
                else ""
            )
            + "; each was checked against ORO.FTL.205/210/235, recency and type rating for this duty.",
            parameters={"replacements": replacements, "report": report.isoformat()},
            estimated_delay_minutes=max(
                delay, int((report + REPORT_BEFORE_DEPARTURE - flight.scheduled_departure).total_seconds() // 60)
            ),
        ),
    }


def reserve_swap_at(
    handle: DataHandle,
    flight: Flight,
    delay_minutes: int,
    *,
    now: datetime | None = None,
    rules: OperatorRules = OperatorRules(),
    rostered: tuple | None = None,
    ready_from: datetime | None = None,
) -> RecoveryProposal | None:
    """Legal standby reserves for every rostered member who is illegal at `delay_minutes` (the arbitrator's
    "delay and swap the crew" scenario); None when nobody is illegal or a rank has no legal reserve. `rostered`:
    ``rostered_crew(handle, flight)`` already read (the arbitrator asks at several delays); `ready_from`: the
    earliest the flight may leave, which the reserves are readied for where they legally can (``_reserve_swap``)."""
    _, members, rosters = rostered if rostered is not None else rostered_crew(handle, flight)
    illegal = [r for r in flight_crew_legality(flight.flight_id, members, rosters, delay_minutes, rules) if not r.legal]
    if not illegal:
        return None
    at = decision_time(flight, now)
    return _reserve_swap(handle, flight, illegal, rosters, at, delay_minutes, rules, ready_from)["proposal"]


def replacement_findings(
    handle: DataHandle,
    flight: Flight,
    replaced_id: str,
    reserve_id: str,
    delay_minutes: int,
    report: datetime,
    rules: OperatorRules = OperatorRules(),
) -> list[Finding]:
    """The crew rules for reserve `reserve_id` taking `replaced_id`'s duty on `flight`, delayed and reported as given."""
    template = duty_at_delay(
        _rosters(handle, [replaced_id], flight.scheduled_departure)[replaced_id], flight.flight_id, delay_minutes
    )
    reserve = q.crew_members(handle, [reserve_id])
    if not reserve:
        raise LookupError(f"reserve {reserve_id} is not in CrewMembers")
    history = _rosters(handle, [reserve_id], flight.scheduled_departure)[reserve_id]
    return evaluate_swap_candidate(reserve[0], history, template, report, rules)


def ferry_crew(
    handle: DataHandle,
    duty: ProposedDuty,
    at: datetime,
    rules: OperatorRules = OperatorRules(),
) -> tuple[dict[str, str] | None, str]:
    """A legal captain and first officer on standby at the ferry's origin for `duty` ({rank: crew id}), or None,
    and what the search found, for the audit."""
    station = duty.start_station or ""
    report = max(at + CALL_OUT, duty.report)
    standby = standby_at(handle, station, report)
    rating = AIRCRAFT_TYPES[duty.aircraft_type].rating_group
    pilots = [
        m
        for m in q.crew_members(handle, sorted({r.crew_id for r in standby}))
        if m.rank in FERRY_RANKS and rating in m.type_ratings
    ]
    chosen: dict[str, str] = {}
    for member in pilots:  # the first legal pilot of each rank: histories read only while a rank is open
        if member.rank not in chosen and is_legal(
            evaluate_swap_candidate(
                member, _rosters(handle, [member.crew_id], duty.report)[member.crew_id], duty, report, rules
            )
        ):
            chosen[member.rank] = member.crew_id
    missing = [rank for rank in FERRY_RANKS if rank not in chosen]
    found = f"{len(pilots)} {rating}-rated pilots on standby at {station} checked for the ferry"
    if missing:
        return None, f"{found}; no legal {' or '.join(missing)}"
    return chosen, f"{found}; {chosen['CPT']} and {chosen['FO']} legal, reporting {report:%H:%MZ}"


def ferry_crew_findings(
    handle: DataHandle, crew_id: str, duty: ProposedDuty, report: datetime, rules: OperatorRules = OperatorRules()
) -> list[Finding]:
    """The crew rules for `crew_id` flying the ferry `duty`, reporting at `report` (re-checked by validation)."""
    member = q.crew_members(handle, [crew_id])
    if not member:
        raise LookupError(f"ferry crew {crew_id} is not in CrewMembers")
    history = _rosters(handle, [crew_id], duty.report)[crew_id]
    return evaluate_swap_candidate(member[0], history, duty, report, rules)
