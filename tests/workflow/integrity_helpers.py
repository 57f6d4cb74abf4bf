"""After every execution a test makes: the library's whole-airline check (``data.integrity.check_operation``) finds
every tail flying its flights in sequence and every crew chain the executions touched legal."""

from __future__ import annotations

from skymarshal.data.integrity import check_operation


def plan_flights(scenario) -> list[str]:
    """Every flight a plan's actions name (a re-crewed later duty's flight is not marked by the execution)."""
    return sorted(
        {a.flight_id for a in scenario.actions} | {f for a in scenario.actions for f in getattr(a, "flights", [])}
    )


def assert_intact(handle, *scenarios) -> None:
    result = check_operation(handle, crew_flights=[f for s in scenarios for f in plan_flights(s)])
    assert result.intact, "\n".join(result.lines()[:10])
