"""How a ranked scenario holds up: 30 minutes later or earlier, one spare aircraft fewer, one reserve more.

The time shifts are re-validated by the same code that validated the scenario, so "still valid" means
the rules say so at the shifted times, not that it looks close enough.
"""

from __future__ import annotations

from .context import DisruptionContext
from .continuation.plan import continuation_of, shifted_continuation
from .crew.short import with_stood_down
from .models import Scenario, Sensitivity, ValidatedScenario
from .plans.operate import operate
from .validation.scenario import validate

SHIFT_MINUTES = 30


def shifted(ctx: DisruptionContext, s: Scenario, minutes: int) -> Scenario | None:
    """The same plan `minutes` later (or earlier); None when it cannot move (a cancellation, or earlier than
    the flight's current estimate)."""
    if continuation_of(s) is not None:  # flown on from the alternate: the leg moves, not the flight
        return shifted_continuation(ctx, s, minutes)
    delay = s.delay_minutes + minutes
    if not s.operates or delay < ctx.flight.delay_minutes or delay < 0:
        return None
    report = next((a.report_at for a in s.actions if a.kind == "reassign_crew"), None)
    swapped = s.registration if s.registration != ctx.flight.aircraft_registration else None
    alternate = s.arrival_airport if s.kind == "divert" else None
    moved = operate(
        ctx,
        s.kind,
        delay,
        sources=s.sources,
        registration=swapped,
        aircraft_type=s.aircraft_type if swapped else None,
        replacements=s.crew_replacements or None,
        report=report,
        alternate=alternate,
    )
    return with_stood_down(ctx, moved, s.crew_stood_down) if s.crew_stood_down else moved


def _shift_text(ctx: DisruptionContext, s: Scenario, minutes: int) -> str:
    moved = shifted(ctx, s, minutes)
    label = f"{'+' if minutes > 0 else '−'}{abs(minutes)} min"
    if moved is None:
        return f"{label}: not applicable (" + (
            "nothing operates)" if not s.operates else "cannot leave before the current estimate)"
        )
    result = validate(ctx, moved)
    if result.valid:
        return f"{label}: still valid (off blocks {moved.departure:%H:%MZ}, cost USD {moved.cost_usd:,.0f})"
    return f"{label}: becomes invalid — " + "; ".join(r.message for r in result.rejections[:2])


def analyse(
    ctx: DisruptionContext, v: ValidatedScenario, valid: list[ValidatedScenario], rejected: list[ValidatedScenario]
) -> Sensitivity:
    s = v.scenario
    swapped = s.operates and s.registration != ctx.flight.aircraft_registration
    if swapped:
        others = [
            o.scenario.registration
            for o in valid
            if o.scenario.kind == "tail_swap" and o.scenario.registration != s.registration
        ]
        spare = f"{s.registration} unavailable: " + (
            f"{others[0]} is the next valid tail swap"
            if others
            else "no other valid tail swap; the next-ranked plan of another kind applies"
        )
    else:
        spare = "does not use a spare aircraft: unaffected"
    crew_only = [
        r.scenario.title
        for r in rejected
        if r.rejections and all(x.code in ("CREW_ILLEGAL", "CREW_LIMIT_EXCEEDED") for x in r.rejections)
    ]
    if s.crew_replacements:
        reserve = "uses reserves: one more legal reserve adds cover if a called-out reserve cannot report"
    elif crew_only:
        reserve = (
            f"{len(crew_only)} plan(s) rejected only for crew legality (e.g. '{crew_only[0]}') could become "
            "valid with enough legal reserves; this plan does not need them"
        )
    else:
        reserve = "no plan is limited by crew availability: unaffected"
    return Sensitivity(
        delay_plus_30=_shift_text(ctx, s, SHIFT_MINUTES),
        delay_minus_30=_shift_text(ctx, s, -SHIFT_MINUTES),
        one_spare_fewer=spare,
        one_reserve_more=reserve,
    )
