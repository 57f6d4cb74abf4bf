"""The replay's scorecard: SkyMarshal's day read back from the account's tables after the replay, and the
scorecards side by side (``skymarshal replay``, ``make bench-day``)."""

from __future__ import annotations

from ..day.stream import Stream
from .replay_run import Outcome

ROWS = (
    ("D15 on-time departures", "d15", "{:.1%}"),
    ("D15 of scheduled (cancelled = late)", "d15_scheduled", "{:.1%}"),
    ("A15 on-time arrivals", "a15", "{:.1%}"),
    ("cancellations", "cancellations", "{:,}"),
    ("later days' flights moved / cancelled", lambda c: f"{c.later_flights_moved}/{c.later_cancellations}", ""),
    ("diversions", "diversions", "{:,}"),
    ("passengers disrupted", "passengers_disrupted", "{:,}"),
    ("passenger delay (min, final dest.)", "passenger_delay_minutes", "{:,}"),
    ("misconnections", "misconnections", "{:,}"),
    ("stranded overnight", "stranded_overnight", "{:,}"),
    ("EU261/UK261 compensation (USD)", "compensation_usd", "{:,.0f}"),
    ("care (USD)", "care_usd", "{:,.0f}"),
    ("operating cost (USD)", "operating_cost_usd", "{:,.0f}"),
    ("crew legality violations (day)", "crew_violations", "{:,}"),
    ("crew violations in the plans executed", "crew_violations_decided", "{:,}"),
    ("rotation breaks", "rotation_breaks", "{:,}"),
    ("decisions / escalated", lambda c: f"{c.decisions}/{c.escalated}", ""),
    ("wall time per decision (s)", "seconds_per_decision", "{:.1f}"),
)


def scorecard_table(cards: list, title: str = "") -> str:
    """The scorecards side by side, one row per KPI."""
    width = max(14, *(len(c.policy) + 2 for c in cards))
    lines = [title] if title else []
    lines.append(f"{'':36s}" + "".join(f"{c.policy:>{width}s}" for c in cards))
    for label, field, fmt in ROWS:
        cells = []
        for c in cards:
            if callable(field):
                cells.append(field(c))
            else:
                value = getattr(c, field)
                cells.append("—" if value is None else fmt.format(value))
        lines.append(f"{label:36s}" + "".join(f"{cell:>{width}s}" for cell in cells))
    for c in cards:  # each break and the first crew violations, to trace
        lines += [f"  {c.policy}: {note}" for note in (*c.rotation_break_notes[:5], *c.crew_violation_notes[:5])]
    return "\n".join(lines)


def account_scorecard(handle, stream: Stream, outcomes: list[Outcome], tails: dict[str, str], policy: str):
    """SkyMarshal's scorecard from the account's tables after the day (read through the GSIs); rotation breaks
    are the larger of the flown day's and ``data.integrity.check_operation``'s continuity breaks on the tables."""
    from ..data.integrity import check_operation
    from ..day.scorecard import DecisionStats, score
    from ..day.state import from_handle

    days = stream.header.days
    state = from_handle(handle, days, tails)
    stats = DecisionStats(
        decisions=len(outcomes),
        escalated=sum(o.fell_back for o in outcomes),
        seconds=tuple(o.seconds for o in outcomes),
    )
    card = score(f"skymarshal-{policy}", state, stream.events, days, stats)
    tables = check_operation(handle).continuity
    notes = card.rotation_break_notes if len(tables) <= card.rotation_breaks else tuple(b.message for b in tables)
    return card.model_copy(
        update={"rotation_breaks": max(card.rotation_breaks, len(tables)), "rotation_break_notes": notes}
    )
