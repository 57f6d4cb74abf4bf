"""The safety agents' binding constraints as machine-checkable bounds, and the pure check of a scenario
against them (the first of the two validation layers; the second re-computes the rules under the scenario).

All bounds from all safety agents apply at once: a plan must satisfy their intersection, so between two
safety agents the stricter bound always governs (seed 000, property 9: the most conservative option wins).
A safety agent that could not finish leaves a NO DISPATCH bound: no scenario that operates the flight passes.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..data.schema import SAFETY_AGENTS
from ..models.agent_response import AgentResponse, CrewConstraint, MaintenanceConstraint, RegulatoryConstraint
from .actions import ReassignCrew, RestCrew
from .models import ConstraintCheck, RejectionCode, Scenario

REGISTRATION = re.compile(r"^[A-Z0-9]{1,2}-[A-Z0-9]{3,5}$")


class _Bound(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    agent: str
    text: str  # the agent's own wording, for the audit trail


class CrewIllegalBound(_Bound):
    """These crew may not operate at a delay of `from_delay_minutes` or more (unless replaced). `unavailable`: the
    finding is their roster status (sick, unfit); `available_from`: the earliest off-blocks with them, when the
    disruption estimates when they are available again (``context.with_crew_available``) — before it they may not
    operate at any delay. `next_duty`: what the delay breaks is their rest before the next rostered duty (ORO.FTL.235),
    so a plan that re-crews or moves that duty keeps them, and validation's rules judge the plan's handling of it
    (crew/chain.py)."""

    kind: Literal["crew_illegal"] = "crew_illegal"
    crew_ids: tuple[str, ...]
    from_delay_minutes: int
    unavailable: bool = False
    available_from: datetime | None = None
    next_duty: bool = False


class CrewMaxDelayBound(_Bound):
    """The rostered crew is legal only up to `max_delay_minutes` (unless every one of them is replaced, or the plan
    answers for a member's later duty: then the crew rules judge each member at the plan's delay)."""

    kind: Literal["crew_max_delay"] = "crew_max_delay"
    crew_ids: tuple[str, ...]
    max_delay_minutes: int


class AircraftGroundedBound(_Bound):
    """The aircraft may not fly before `release_at`; `None`: not at all in this plan's horizon."""

    kind: Literal["aircraft_grounded"] = "aircraft_grounded"
    registration: str
    release_at: datetime | None


class ArrivalWindowBound(_Bound):
    """No arrival at `airport` in [start, end): a curfew or weather below limits."""

    kind: Literal["arrival_window"] = "arrival_window"
    airport: str
    start: datetime
    end: datetime
    reason: Literal["curfew", "weather", "notam", "atc"]


class NoDispatchBound(_Bound):
    kind: Literal["no_dispatch"] = "no_dispatch"


SafetyBound = CrewIllegalBound | CrewMaxDelayBound | AircraftGroundedBound | ArrivalWindowBound | NoDispatchBound


def bounds_from(collation: dict[str, AgentResponse]) -> list[SafetyBound]:
    """Every binding bound the safety agents reported (the revision round's, which never relaxes one)."""
    bounds: list[SafetyBound] = []
    for agent in SAFETY_AGENTS:
        response = collation.get(agent)
        if (
            response is None
            or response.status == "error"
            or any(c.startswith("NO DISPATCH") for c in response.binding_constraints)
        ):
            text = (
                response.binding_constraints[0] if response and response.binding_constraints else f"no {agent} result"
            )
            bounds.append(NoDispatchBound(agent=agent, text=text))
            continue
        bounds.extend(_from_constraints(agent, response))
    return bounds


def _from_constraints(agent: str, response: AgentResponse) -> list[SafetyBound]:
    bounds: list[SafetyBound] = []
    releases: dict[str, datetime | None] = {}
    for c in response.constraints:
        if isinstance(c, CrewConstraint) and c.binding:
            if c.illegal_from_delay_minutes is not None:
                bounds.append(
                    CrewIllegalBound(
                        agent=agent,
                        text=c.restriction,
                        crew_ids=tuple(c.affected_crew),
                        from_delay_minutes=c.illegal_from_delay_minutes,
                        unavailable=c.constraint_type == "availability",
                        next_duty=c.constraint_type == "next_duty_rest",
                    )
                )
            elif c.max_delay_minutes is not None:
                bounds.append(
                    CrewMaxDelayBound(
                        agent=agent,
                        text=c.restriction,
                        crew_ids=tuple(c.affected_crew),
                        max_delay_minutes=c.max_delay_minutes,
                    )
                )
        elif isinstance(c, MaintenanceConstraint) and not c.airworthy:
            releases[c.aircraft_id] = c.estimated_release
            bounds.append(
                AircraftGroundedBound(
                    agent=agent, text=c.reasoning, registration=c.aircraft_id, release_at=c.estimated_release
                )
            )
        elif isinstance(c, RegulatoryConstraint) and c.constraint_type in ("curfew", "weather", "notam", "atc"):
            for airport in c.affected_airports:
                for window in c.time_windows:
                    bounds.append(
                        ArrivalWindowBound(
                            agent=agent,
                            text="; ".join(c.restrictions),
                            airport=airport,
                            start=window.start,
                            end=window.end,
                            reason=c.constraint_type,
                        )
                    )
    # A binding finding about an aircraft with no constraint row (e.g. a spare with an expired MEL item)
    # grounds that aircraft too.
    for finding in response.findings:
        if finding.binding and REGISTRATION.match(finding.subject) and finding.subject not in releases:
            releases[finding.subject] = None
            bounds.append(
                AircraftGroundedBound(agent=agent, text=finding.message, registration=finding.subject, release_at=None)
            )
    return bounds


def check_bound(scenario: Scenario, bound: SafetyBound) -> tuple[ConstraintCheck, RejectionCode | None]:
    """Whether `scenario` keeps `bound`; the check for the audit trail and, when broken, the rejection code."""
    violated, subject = False, bound.agent
    # a reserve's duty, the crew's own re-timed after a rest, or the cabin crew left without a member who stood down
    # are the rules' to check (validation's second layer)
    gone = {*scenario.crew_replacements, *scenario.crew_rested, *scenario.crew_stood_down}
    code: RejectionCode | None = None
    answered = ""
    if isinstance(bound, NoDispatchBound):
        violated, code = scenario.operates, "SAFETY_ANALYSIS_MISSING"
    elif isinstance(bound, CrewIllegalBound):
        kept = [
            c for c in bound.crew_ids if c not in gone and not (bound.next_duty and c in _later_duty_handled(scenario))
        ]
        if bound.available_from is None:
            caught = scenario.delay_minutes >= bound.from_delay_minutes
        else:  # unavailable until the estimate: any departure before it keeps a member who is not there
            caught = scenario.departure is None or scenario.departure < bound.available_from
        violated, code, subject = (
            scenario.operates and bool(kept) and caught,
            "CREW_ILLEGAL",
            ",".join(bound.crew_ids[:3]),
        )
    elif isinstance(bound, CrewMaxDelayBound):
        # the bound is the least of every member's latest legal delay, their next duty's rest included: a plan that
        # re-crews, re-times or cancels a member's later duty is judged member by member by the rules instead, at
        # its own delay (validation's second layer: each one's FDP, and each next duty by crew/chain.py)
        kept = [c for c in bound.crew_ids if c not in gone]
        if set(kept) & _later_duty_handled(scenario) and scenario.delay_minutes > bound.max_delay_minutes:
            kept, answered = [], "; past it, the plan answers for a later duty and the crew rules judge each member"
        violated, code, subject = (
            scenario.operates and bool(kept) and scenario.delay_minutes > bound.max_delay_minutes,
            "CREW_LIMIT_EXCEEDED",
            ",".join(bound.crew_ids[:3]),
        )
    elif isinstance(bound, AircraftGroundedBound):
        flies = scenario.operates and scenario.registration == bound.registration
        early = bound.release_at is None or (scenario.departure is not None and scenario.departure < bound.release_at)
        violated, code, subject = flies and early, "AIRCRAFT_NOT_AIRWORTHY", bound.registration
    elif isinstance(bound, ArrivalWindowBound):
        lands = scenario.operates and scenario.arrival_airport == bound.airport
        violated = lands and scenario.arrival is not None and bound.start <= scenario.arrival < bound.end
        code = "CURFEW" if bound.reason == "curfew" else "WEATHER_BELOW_LIMITS"
        subject = bound.airport
    check = ConstraintCheck(
        constraint=f"{bound.kind.replace('_', ' ')} ({bound.agent})",
        source=bound.agent,
        clause=_clause(bound.text),
        subject=subject,
        status="illegal" if violated else "legal",
        message=("violates: " if violated else "kept: ") + bound.text + answered,
    )
    return check, code if violated else None


def _later_duty_handled(scenario: Scenario) -> set[str]:
    """Crew whose duty on some flight the plan re-crews (a reserve), re-times (a report after rest) or cancels."""
    handled: set[str] = set(scenario.crew_next_duty_cancelled)
    for a in scenario.actions:
        if isinstance(a, ReassignCrew):
            handled |= set(a.replacements)
        elif isinstance(a, RestCrew):
            handled |= set(a.reports)
    return handled


def _clause(text: str) -> str:
    match = re.search(r"\[([^\]]+)\]", text)
    return match.group(1) if match else "agent constraint"
