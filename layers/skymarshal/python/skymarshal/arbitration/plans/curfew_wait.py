"""A wait that runs into a curfew waits it out: the first delay at or after a candidate at which neither the
departure nor the arrival falls inside a curfew at either end (the curfew rules' own ``minutes_until_window_end``),
often a next-morning departure. The passengers' care and hotel for the night (EU261 Art. 9) are costed with the
delay like any other (``rules.guest.duty_of_care`` counts the hotel once an overnight stay becomes necessary)."""

from __future__ import annotations

import math
from datetime import datetime, timedelta

from ...models.operational import AirportProfile
from ...rules.curfew import Movement, check_movement_at
from ..context import DisruptionContext

MAX_WINDOWS = 4  # the departure's curfew, then the arrival's, then each again: a fifth is a schedule that never flies


def curfew_wait(profile: AirportProfile | None, at: datetime, movement: Movement) -> int:
    """Minutes until a movement at `at` is outside every curfew of the airport (0: it already is, or no profile)."""
    if profile is None:
        return 0
    finding = check_movement_at(profile, at, movement)
    return int(finding.details.get("minutes_until_window_end", 0)) + 1 if finding.binding else 0


def after_curfews(ctx: DisruptionContext, delay: int) -> int | None:
    """The first delay (to 5 minutes) from `delay` on with both movements outside every curfew, when `delay` itself
    moves into one; None when it does not (or the airports are unknown: validation names that)."""
    f = ctx.flight
    block = f.scheduled_arrival - f.scheduled_departure
    origin, destination = ctx.profile(f.origin), ctx.profile(f.destination)
    if origin is None or destination is None:
        return None
    minutes = delay
    for _ in range(MAX_WINDOWS):
        departure = f.scheduled_departure + timedelta(minutes=minutes)
        wait = 0
        movements: tuple[tuple[AirportProfile, datetime, Movement], ...] = (
            (origin, departure, "departure"),
            (destination, departure + block, "arrival"),
        )
        for profile, at, movement in movements:
            wait = max(wait, curfew_wait(profile, at, movement))
        if not wait:
            return None if minutes == delay else math.ceil(minutes / 5) * 5
        minutes += wait
    return None
