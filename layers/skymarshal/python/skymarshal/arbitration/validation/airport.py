"""The airport checks of a scenario's validation (validation/scenario.py): curfews at its two ends and the
weather at its arrival, at the scenario's own times; and the two shapes every validation check is built in."""

from __future__ import annotations

from datetime import datetime, timedelta

from ...data import queries as q
from ...models.findings import Finding
from ...rules.curfew import Movement, check_movement_at
from ...rules.regulatory import nearest_observation
from ...rules.weather import assess_weather
from ..context import DisruptionContext
from ..memo_keys import WeatherRead
from ..models import ConstraintCheck, Scenario


def rules_check(constraint: str, source: str, clause: str, subject: str, status: str, message: str) -> ConstraintCheck:
    """One check computed by the rules, as the validation lists it."""
    return ConstraintCheck(
        constraint=constraint, source=source, clause=clause, subject=subject, status=status, message=message
    )


def from_finding(constraint: str, finding: Finding) -> ConstraintCheck:
    """A rule's finding as the check it decides."""
    return rules_check(constraint, "rules", finding.clause, finding.subject, finding.status, finding.message)


def curfew_checks(ctx: DisruptionContext, s: Scenario):
    """The curfews at the scenario's departure and arrival, at its times (an unknown airport: DATA_MISSING)."""
    assert s.departure is not None and s.arrival is not None and s.arrival_airport is not None  # set by operate()
    movements: tuple[tuple[str, datetime, Movement], ...] = (
        (ctx.flight.origin, s.departure, "departure"),
        (s.arrival_airport, s.arrival, "arrival"),
    )
    for iata, at, movement in movements:
        profile = ctx.profile(iata)
        if profile is None:
            yield (
                rules_check(
                    f"curfew {iata}",
                    "rules",
                    "airport reference",
                    iata,
                    "illegal",
                    f"No airport reference for {iata}: curfew cannot be checked.",
                ),
                "DATA_MISSING",
            )
            continue
        finding = check_movement_at(profile, at, movement)
        yield from_finding(f"curfew {iata} ({movement})", finding), "CURFEW" if finding.binding else None


def weather_checks(ctx: DisruptionContext, s: Scenario):
    """The arrival airport's observation nearest the scenario's arrival against its limits (CAT.OP.MPA.300)."""
    assert s.arrival is not None and s.arrival_airport is not None  # operate() sets both on an operating scenario
    profile = ctx.profile(s.arrival_airport)
    if profile is None:
        return
    observations = ctx.memo(
        WeatherRead(s.arrival_airport, s.arrival.date()),
        lambda: q.weather(
            ctx.handle, s.arrival_airport, s.arrival - timedelta(hours=12), s.arrival + timedelta(hours=12)
        ),
    )
    current = nearest_observation(observations, s.arrival_airport, s.arrival)
    if current is None:
        yield (
            rules_check(
                f"weather {s.arrival_airport}",
                "rules",
                "CAT.OP.MPA.300 / AFM",
                s.arrival_airport,
                "at_risk",
                f"No forecast for {s.arrival_airport} near {s.arrival:%H:%MZ}: check before dispatch.",
            ),
            None,
        )
        return
    findings = assess_weather(current, profile, s.aircraft_type or ctx.flight.aircraft_type).findings
    bad = next((f for f in findings if f.binding), None)
    if bad:
        yield from_finding(f"weather {s.arrival_airport}", bad), "WEATHER_BELOW_LIMITS"
    else:
        worst = max(findings, key=lambda f: ("legal", "at_risk", "illegal").index(f.status))
        yield from_finding(f"weather {s.arrival_airport}", worst), None
