"""Each drawn event written as the report an OCC receives, by the reading bench's writer (bench/reading/render.py):
the same narrative, terse and shorthand styles and decorations the reader is measured on, about the event's
own subject (its flight, its crew member's rank, its station and window). The expected delay a report states is
the event's own hold, so a report never says less than what happens. MVT messages are left out: they carry a
delay of their own choosing. Weather keeps the history generator's words (fog at the hub, snow in Boston): the
reading bench's weather words are climate-blind (snow at Abu Dhabi)."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Sequence

from skymarshal.day.stream import StreamEvent
from skymarshal.models.operational import CrewDuty

from ..reading import vocabulary as v
from ..reading.airline_view import AirlineView
from ..reading.causes import CAUSES, CauseWords
from ..reading.render import Writer
from ..reading.subjects import Subject

SCOPE = {"tail": "flight", "crew": "crew_member", "flight": "flight", "station": "airport"}
STAFF = {"narrative": "Staff no. ", "terse": "STAFF ", "shorthand": "ID "}


class _EventWriter(Writer):
    """The bench's writer, stating the event's own hold as the expected delay."""

    hold_minutes: int = 0

    def delay(self) -> str:
        if self.subject.scope in ("airport", "airspace"):
            return ""
        self.out.delay_minutes = self.hold_minutes
        return self.rng.choice(v.SHORT_DELAY if self.short else v.DELAY_WORDS).format(minutes=self.hold_minutes) + "."


# Words that state a time of their own ("CTOT +75", "an hour late", "for about two hours") would contradict the
# event's hold: a report must not say less than what happens, nor more.
OWN_TIME = re.compile(
    r"\b[Hh]ours?\b|\b[Mm]inutes?\b|\bmins?\b|\d+ ?(?:[Hh]|[Hh][Rr][Ss]?|[Mm][Ii][Nn])\b|[+-]\d|CTOT|\bSLOT\b|\bHOURS?\b|\b(?:an|two|one) hour"
)


def _timeless(cause: CauseWords, scope: str) -> CauseWords | None:
    """The cause's words with no time of their own, or None when none are left for the scope."""
    keep = {
        name: tuple(p for p in getattr(cause, name) if not OWN_TIME.search(p))
        for name in ("clauses", "shorthand", "station_clauses")
    }
    needed = ("station_clauses",) if scope == "airport" else ("clauses", "shorthand")
    return dataclasses.replace(cause, **keep) if all(keep[n] for n in needed) else None


def _cause(event: StreamEvent, scope: str) -> CauseWords | None:
    fits = [
        t for c in CAUSES if scope in c.scopes and c.family == event.family if (t := _timeless(c, scope)) is not None
    ]
    if event.holds == "station":
        fits = [c for c in fits if c.closes == event.closes] or fits
    same = [c for c in fits if c.code == event.code]
    return (same or fits or [None])[0]


def written(
    event: StreamEvent, view: AirlineView, crew_on: dict[str, Sequence[CrewDuty]], rng: random.Random
) -> StreamEvent:
    """The event with its report in one of the reading bench's styles (unchanged where no words fit)."""
    if event.family == "weather":
        return event  # the history's own words for the weather suit the station's climate; the bench's do not
    scope = SCOPE[event.holds]
    cause = _cause(event, scope)
    if cause is None:
        return event
    flight = next((f for f in view.flights if f.flight_id == event.flight_id), None)
    if event.holds == "station":
        inside = view.touching(event.station or "", event.start, event.end)
        subject = Subject("airport", event.start.date(), inside, station=event.station, window=(event.start, event.end))
    elif flight is None:
        return event
    elif event.holds == "crew":
        ranks = [r.position for r in crew_on.get(flight.flight_id, []) if r.crew_id in event.crew_ids and r.position]
        if not ranks:
            return event
        subject = Subject("crew_member", flight.flight_date, [flight], rank=ranks[0], station=flight.origin)
    else:
        subject = Subject("flight", flight.flight_date, [flight], station=flight.origin)
    style = rng.choice(("narrative", "terse", "shorthand"))
    writer = _EventWriter(view, rng, subject, cause, style)
    writer.hold_minutes = max(
        15, round((event.end - (flight.scheduled_departure if flight else event.start)).total_seconds() / 60)
    )
    text = writer.write().text
    if not text.strip():
        return event
    if event.crew_ids:  # an OCC knows who reported sick: the staff numbers, in the style's own words
        text = f"{text.rstrip()} {STAFF[style]}{'/'.join(event.crew_ids)}"
    return event.model_copy(update={"report": text})
