"""The operating day a report speaks from, and which of its date phrases state the disruption's day.

- The operating day: stated in the report ("Ops day 21 Jan.", "OPS DATE 2027-01-18:", "Operating day: Jan 19th",
  "for ops of 18 January"), else the configured one (`SKYMARSHAL_OPS_DATE`, the CLI's `--ops-date`, the API's
  `ops_date`), else the caller's today. "Today", "tonight", "tomorrow" and weekdays resolve against it.
- A date inside an instructing sentence states nothing ("rules are waived today"); a weekday alone where the
  report also writes a date is a remark's ("town hall on Thursday"); and where the report's dates disagree,
  those in the sentences naming its subject (the flight, the tail) are the disruption's.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import date, timedelta
from typing import TypeVar

from .dates import DateMention, find_dates, nearest, resolve
from .sentences import instruction_spans, spans

OPS_DATE_ENV = "SKYMARSHAL_OPS_DATE"
T = TypeVar("T")
_OPS_DAY = re.compile(r"\b(?:ops|operations|operating|op)\.?\s*(?:day|date|of)\b\s*(?:[:=\-–]\s*)?", re.I)


class OpsDateError(ValueError):
    """A configured operating date that is not a date (a configuration error, one line)."""


def configured_ops_date(value: str | date | None = None) -> date | None:
    """The operating date given (an API field, a CLI option), else `SKYMARSHAL_OPS_DATE`, else None."""
    raw = value if value is not None else os.environ.get(OPS_DATE_ENV) or None
    if raw is None or isinstance(raw, date):
        return raw
    try:
        return date.fromisoformat(str(raw).strip())
    except ValueError:
        raise OpsDateError(f"the operating date must be YYYY-MM-DD, not {raw!r}") from None


def speaks_relatively(text: str) -> bool:
    """Does the report say "today", "tonight", "tomorrow", a weekday or a part of this day ("this evening"): days
    that need an operating day?"""
    from .flight_sets import parts_of_day  # (flight_sets reads the report's words, which read its dates)

    return any(m.kind in ("relative", "weekday") for m in find_dates(text)) or bool(parts_of_day(text))


def day_of(mention: DateMention, today: date) -> date | None:
    """A mention's date with no flight to narrow it: a day without a year is its nearest occurrence to today."""
    if mention.kind == "yearless" and mention.month and mention.day:
        around = []
        for year in (today.year - 1, today.year, today.year + 1):
            try:
                around.append(date(year, mention.month, mention.day))
            except ValueError:
                continue
        return nearest(around, today)
    if mention.kind == "yearless" and mention.day:
        candidates = [today + timedelta(days=n) for n in range(-20, 21)]
        return nearest([d for d in candidates if d.day == mention.day], today)
    return resolve(mention, today, None).date


def stated_ops_day(text: str, mentions: Sequence[DateMention]) -> DateMention | None:
    """The date phrase the report gives as its operating day, if it gives one."""
    for m in _OPS_DAY.finditer(text):
        for mention in mentions:
            if m.end() - 1 <= mention.start <= m.end() + 1 and mention.kind in ("explicit", "yearless"):
                return mention
    return None


def operating_day(text: str, configured: date | None, today: date) -> tuple[date, DateMention | None]:
    """The day relative days resolve against, and the report's phrase stating it (None: configured or today)."""
    base = configured or today
    stated = stated_ops_day(text, find_dates(text))
    if stated is not None and (day := day_of(stated, base)) is not None:
        return day, stated
    return base, None


def outside_instructions(text: str, found: Sequence[T], at: Callable[[T], int]) -> list[T]:
    """What was found outside the instructing sentences; where everything is inside one ("EY1 on 1 Jan had a ...
    ignore the limits"), all of it: an instruction cannot add to what the report's other sentences state."""
    instructing = instruction_spans(text)
    plain = [x for x in found if not any(a <= at(x) < b for a, b in instructing)]
    return plain if plain or not found else list(found)


def _sentence_of(sentences: list[tuple[int, int]], at: int) -> int:
    return next((i for i, (a, b) in enumerate(sentences) if a <= at < b), -1)


def relevant(
    text: str, mentions: Sequence[DateMention], subjects: Sequence[tuple[int, int]], ops: DateMention | None
) -> list[DateMention]:
    """The mentions that state the disruption's day (see the module docstring). With none left and an operating
    day stated, that day is the disruption's ("Ops day 21 Jan. EY625 will go late")."""
    sentences = list(spans(text))
    stated = [m for m in mentions if ops is None or (m.start, m.end) != (ops.start, ops.end)]
    kept = outside_instructions(text, stated, lambda m: m.start)
    if any(m.kind != "weekday" for m in kept):
        kept = [m for m in kept if m.kind != "weekday"]
    # a part of this day beside another day says when something happened ("EY11 on 20 Jan: this morning the captain
    # called in sick"), not a second day for the flight
    if any(not (m.word or "").startswith("this ") for m in kept):
        kept = [m for m in kept if not (m.word or "").startswith("this ")]
    if len({m.key for m in kept}) > 1:
        named = {_sentence_of(sentences, a) for a, _ in subjects}
        in_subject = [m for m in kept if _sentence_of(sentences, m.start) in named]
        kept = in_subject or kept
    if not kept and ops is not None:
        kept = [replace(ops, source="operating day")]
    return kept
