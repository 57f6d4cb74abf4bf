"""The seeded report corpus: every cause in every scope it can be reported for, in every style that suits the
scope, round after round until the count is reached, plus contradictions the reader must refuse.

`build_corpus(view, seed=..., count=...)` is reproducible: the same airline and seed give the same reports.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, time, timedelta
from itertools import cycle

from .airline_view import AirlineView
from .causes import CAUSES, CauseWords
from .render import Writer
from .subjects import Subject, contradicted, described_set, pick
from .truth import SCOPE_LABELS, STYLES, Contradiction, Report, ScopeLabel, Style, Truth

CONTRADICTION_SHARE = 0.1
CONTRADICTIONS: tuple[Contradiction, ...] = (
    "airport_not_on_route",
    "tail_not_the_flights",
    "position_not_rostered",
    "tail_not_at_airport",
    "description_matches_none",
)
# Crew reports have two causes (64, 67) and one scope: drawn three times a round so the family weighs like others.
SCOPE_WEIGHTS: dict[str, int] = {"crew_member": 3}
ATTEMPTS = 50  # draws of a subject before a combination is skipped for this round (never seen at 0.05 load)


def styles_for(cause: CauseWords, scope: ScopeLabel) -> tuple[Style, ...]:
    """MVT messages are per flight and carry one delay code: only one flight or its crew, and a coded cause."""
    if scope in ("flight", "crew_member") and cause.code is not None:
        return STYLES
    return tuple(s for s in STYLES if s != "mvt")


def reportable(cause: CauseWords, scope: ScopeLabel) -> bool:
    """A set described is reported for a cause reported for several flights or for a tail's."""
    return scope in cause.scopes or (scope == "described" and bool(cause.scopes & {"flights", "tail"}))


def combinations() -> list[tuple[CauseWords, ScopeLabel, Style]]:
    return [
        (cause, scope, style)
        for cause in CAUSES
        for scope in SCOPE_LABELS
        if reportable(cause, scope)
        for style in styles_for(cause, scope)
        for _ in range(SCOPE_WEIGHTS.get(scope, 1))
    ]


def contradiction_scope(kind: Contradiction, rng: random.Random) -> ScopeLabel:
    """The scope a contradiction is written in: an airport off the route or another tail also beside several
    flights (off every one's route, none's tail), half the time."""
    fixed = {
        "position_not_rostered": "crew_member",
        "tail_not_at_airport": "tail",
        "description_matches_none": "described",
    }
    if kind in fixed:
        return fixed[kind]  # type: ignore[return-value]
    return "flights" if rng.random() < 0.5 else "flight"


def truth_of(cause: CauseWords, subject: Subject, written_delay: int | None, operating_day) -> Truth:
    s = subject
    network = s.scope in ("airport", "airspace")
    # weather over an airport's window fixes the family; departure or destination depends on the flight
    code = None if (network and cause.family == "weather" and cause.code in (71, 72)) else cause.code
    return Truth(
        family=cause.family,
        code=code,
        scope=s.scope,
        scope_kind="flight" if s.scope in ("flights", "described") else s.scope,
        flights=[f.flight_id for f in s.flights],
        flights_exact=s.scope in ("flight", "flights", "described", "crew_member"),
        registration=s.registration if s.scope == "tail" or s.refuse else None,
        airport=s.station if (network or s.refuse or _names_station(cause, s)) else None,
        airspace=s.airspace,
        crew_rank=s.rank,
        window_start=s.window[0] if s.window else None,
        window_end=s.window[1] if s.window else None,
        delay_minutes=written_delay,
        operating_day=operating_day,
        refuse=s.refuse,
    )


def _names_station(cause: CauseWords, subject: Subject) -> bool:
    return subject.scope == "tail" or any("{station}" in c for c in (*cause.clauses, *cause.shorthand))


def compose(
    view: AirlineView,
    rng: random.Random,
    cause: CauseWords,
    scope: ScopeLabel,
    style: Style,
    reported_at: datetime,
    report_id: str,
    contradiction: Contradiction | None = None,
) -> Report | None:
    for _ in range(ATTEMPTS):
        if contradiction == "description_matches_none":  # drawn empty, not made wrong afterwards
            subject = described_set(view, rng, cause, empty=True)
        else:
            subject = pick(view, rng, cause, scope)
            if subject is not None and contradiction is not None:
                subject = contradicted(view, rng, subject, contradiction)
        if subject is not None:
            break
    else:
        return None
    written = Writer(view, rng, subject, cause, style).write()
    return Report(
        report_id=report_id,
        text=written.text,
        style=style,
        reported_at=reported_at,
        truth=truth_of(cause, subject, written.delay_minutes, written.operating_day),
        decorations=written.decorations,
    )


def reported_at_of(view: AirlineView) -> datetime:
    """One fixed instant for every report (the first day of the data, 06:00 UTC): the operating day a report
    states, not the clock, is what its relative days mean."""
    return datetime.combine(view.days[0] - timedelta(days=1), time(6), UTC)


def build_corpus(view: AirlineView, *, seed: int = 730, count: int = 2400) -> list[Report]:
    """`count` reports: a tenth contradictions, the rest every (cause, scope, style) in turn, shuffled per round."""
    rng = random.Random(seed)
    at = reported_at_of(view)
    reports: list[Report] = []
    wanted_contradictions = round(count * CONTRADICTION_SHARE)
    kinds = cycle(CONTRADICTIONS)
    sound = combinations()
    flight_causes = [c for c in CAUSES if "flight" in c.scopes]
    flights_causes = [c for c in CAUSES if "flights" in c.scopes]
    crew_causes = [c for c in CAUSES if c.code == 64]
    tail_causes = [c for c in CAUSES if "tail" in c.scopes]
    while len(reports) < count - wanted_contradictions:
        rng.shuffle(sound)
        for cause, scope, style in sound:
            if len(reports) >= count - wanted_contradictions:
                break
            report = compose(view, rng, cause, scope, style, at, f"R{len(reports):05d}")
            if report is not None:
                reports.append(report)
    while len(reports) < count:
        kind = next(kinds)
        scope = contradiction_scope(kind, rng)
        pools = {
            "crew_member": crew_causes,
            "tail": tail_causes,
            "flights": flights_causes,
            "described": flights_causes,
        }
        pool = pools.get(scope, flight_causes)
        cause = rng.choice(pool)
        style = rng.choice(styles_for(cause, scope))
        report = compose(view, rng, cause, scope, style, at, f"R{len(reports):05d}", kind)
        if report is not None:
            reports.append(report)
    return reports
