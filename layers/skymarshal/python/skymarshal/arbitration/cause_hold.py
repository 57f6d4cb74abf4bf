"""A cause that holds the flight whatever flies it, held until its estimated clearance (issue 46 item 1): the
departure check of a wait validated at the estimate."""

from __future__ import annotations

from collections.abc import Iterator

from .context import FLIGHT_HOLDS, DisruptionContext
from .models import ConstraintCheck, RejectionCode, Scenario

Check = tuple[ConstraintCheck, RejectionCode | None]


def held_by_cause(ctx: DisruptionContext, s: Scenario) -> Iterator[Check]:
    """A cause that holds the flight whatever flies it (fog at its origin, a slot, a security hold:
    ``DisruptionContext.holds_the_flight``) holds it until its estimated clearance: a plan leaving earlier is a bet
    the estimate says is lost (planned there, its crews are judged at a time it will not fly) — refused with the
    estimate's source. If the cause clears sooner, the decision is taken again then. Weather at the destination
    is the arrival's to meet (the weather checks), not the departure's."""
    clears = ctx.clears
    if clears is None or clears.kind not in FLIGHT_HOLDS or not ctx.holds_the_flight or s.departure is None:
        return
    held_at = ctx.disruption.scope.airport
    if clears.kind == "station_reopens" and held_at not in (None, ctx.flight.origin):
        return
    early = s.departure < clears.expected
    yield (
        ConstraintCheck(
            constraint="cause clearance",
            source="rules",
            clause="estimate of the cause's end (issue 46)",
            subject=ctx.flight.flight_id,
            status="illegal" if early else "legal",
            message=f"{ctx.flight.flight_number} is held until about {clears.expected:%H:%MZ} ({clears.source}: "
            f"{clears.evidence}); off blocks at {s.departure:%H:%MZ} is {'before' if early else 'after'} it.",
        ),
        "HELD_BY_CAUSE" if early else None,
    )
