"""Date phrases in plain language and how each resolves to one local date.

Phrases understood (case-insensitive):
- explicit:  "2027-01-20", "2027/01/20", "20/01/2027", "20.01.2027", "20-01-2027", "20/01/27" (numbers are
             read DAY FIRST), "20 January 2027", "January 20th, 2027", "Wednesday 20 Jan 2027";
- year-less: "January 20th", "Jan 20", "20 Jan", "20th of January", "20-Jan", "20JAN", "on 20/01", "21/01"
             (a bare day/month needs "on"/"for" in front or a two-digit month: "24/7" is no date);
- day only:  "the 20th", "on the 21st", "(20th)" (the ordinal and "the" or brackets around it alone are needed: "20"
             alone is no date, nor "2nd sector");
- relative:  "yesterday", "today", "tonight", "this morning", "tomorrow", "the day before yesterday", "the day after tomorrow";
- weekday:   "Wednesday", "on Wed", "last Wednesday", "next Wednesday", "this Wednesday".

Resolution rules (``resolve``):
- explicit → that date;
- relative → today + the offset (today is the date of the current datetime in the caller's zone);
- weekday  → "Wednesday"/"on Wednesday"/"this Wednesday" = the NEAREST Wednesday to today, either direction,
             today included (within ±3 days, so it is unique); "last Wednesday" = the latest one strictly before
             today; "next Wednesday" / "coming Wednesday" = the first one strictly after today;
- year-less → the occurrence of that day and month NEAREST to today (either direction) among the dates the
             flight operates; on a tie the future one. A day alone: the nearest operating date on that day of
             any month. A stated weekday ("Wednesday 20 Jan") narrows the
             candidates to dates that fall on it.
A stated weekday that contradicts an explicit date is a problem, as is a day or month that does not exist.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import lru_cache
from typing import Literal

from .date_context import (
    capitalised_month,
    day_taken_by_month_before,
    flight_days,
    flight_just_written,
    lowercase_word_not_month,
    may_is_verb,
)
from .flights import flight_ends_here

MONTHS: dict[str, int] = {
    "january": 1,
    "jan": 1,
    "february": 2,
    "feb": 2,
    "march": 3,
    "mar": 3,
    "april": 4,
    "apr": 4,
    "may": 5,
    "june": 6,
    "jun": 6,
    "july": 7,
    "jul": 7,
    "august": 8,
    "aug": 8,
    "september": 9,
    "sept": 9,
    "sep": 9,
    "october": 10,
    "oct": 10,
    "november": 11,
    "nov": 11,
    "december": 12,
    "dec": 12,
}
WEEKDAYS: dict[str, int] = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tues": 1,
    "tue": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thurs": 3,
    "thur": 3,
    "thu": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
# Abbreviated weekdays are also words ("sat", "sun", "wed"): alone they need a qualifier ("on Sat").
_FULL_WEEKDAYS = {name for name in WEEKDAYS if name.endswith("day")}
RELATIVE_DAYS: dict[str, int] = {
    "day before yesterday": -2,
    "yesterday": -1,
    "today": 0,
    "tonight": 0,
    "this morning": 0,  # a part of the operating day names that day ("this morning's EY310")
    "this afternoon": 0,
    "this evening": 0,
    "tomorrow": 1,
    "tmrw": 1,
    "day after tomorrow": 2,
}
WEEKDAY_MODES = {None: "nearest", "on": "nearest", "this": "nearest", "last": "last", "next": "next", "coming": "next"}


def _alternation(names) -> str:
    return "|".join(sorted(names, key=len, reverse=True))  # longest first: "september" before "sep"


_MONTH = rf"(?P<month>{_alternation(MONTHS)})\.?(?![a-z])"
_ORDINAL = r"(?:st|nd|rd|th)?(?![a-z])"  # "Jan 20th", not "Jan 20s"
# A four-digit year must look like one (19xx/20xx): "20 Jan 1430" is a time, not the year 1430; nor is one that
# opens a window or carries a zone ("19JAN 1900-2200Z", "20 Jan 2000Z"): those are clock times.
_YEAR = r"(?P<year>(?:19|20)\d{2})(?!\d)(?![zZ]\b)(?!\s*[-–]\s*\d{4})"
# "on", "for", "dated" and "the" in front of a date belong to it (they are cut from the description too).
_LEAD = r"(?:(?<![\w])(?P<prep>on|for|dated)\s+)?(?:(?<![\w])the\s+)?"
# A weekday written in front of a date is checked against it: "Wednesday 20 January", "Wed, 20 Jan".
_STATED_WEEKDAY = rf"(?:(?<![\w])(?P<wd>{_alternation(WEEKDAYS)})\.?,?\s+(?:the\s+)?)?"

_PATTERNS: dict[str, re.Pattern[str]] = {
    # 2027-01-20, 2027/01/20: year first, then month, then day (ISO order).
    "iso": re.compile(
        rf"{_LEAD}(?P<core>{_STATED_WEEKDAY}(?<![\w/.-])(?P<year>(?:19|20)\d{{2}})(?P<sep>[-/.])"
        r"(?P<mon>\d{1,2})(?P=sep)(?P<day>\d{1,2})(?![\w/-])(?!\.\d))",
        re.I,
    ),
    # 20/01/2027, 20.01.2027, 20-01-2027, 20/01/27, on 20/01: DAY FIRST (the operator's convention).
    "numeric": re.compile(
        rf"{_LEAD}(?P<core>{_STATED_WEEKDAY}(?<![\w/.:-])(?P<day>\d{{1,2}})(?P<sep>[/.-])"
        r"(?P<mon>\d{1,2})(?:(?P=sep)(?P<year>\d{4}|\d{2}))?(?![\w/])(?![.:-]\d))",
        re.I,
    ),
    # 20 Jan, 20th of January, 20-Jan-2027, 20JAN (ops style, glued), 20 January, 2027.
    "day_month": re.compile(
        rf"{_LEAD}(?P<core>{_STATED_WEEKDAY}(?<![\w])(?P<day>\d{{1,2}})(?:st|nd|rd|th)?"
        rf"(?:\s+of\s+|\s*-\s*|\s*){_MONTH}(?:(?:,\s*|\s+|-){_YEAR})?)",
        re.I,
    ),
    # January 20th, Jan 20, Jan. 20, 2027, January the 20th.
    "month_day": re.compile(
        rf"{_LEAD}(?P<core>{_STATED_WEEKDAY}(?<![\w]){_MONTH}\s*(?:the\s+)?"
        rf"(?P<day>\d{{1,2}})(?!\d)(?!:\d){_ORDINAL}(?:(?:,\s*|\s+){_YEAR})?)",
        re.I,
    ),
    # the 20th, on the 21st, (19th): a day of the month alone, after the patterns that name its month — with "the",
    # or alone in brackets ("EY141 to Toronto (19th)"), never an ordinal before a noun ("2nd sector", "1st officer")
    "day_only": re.compile(
        r"(?:(?<![\w])(?P<prep>on|for)\s+)?(?P<core>(?:(?<![\w])the\s+|(?<=\()(?=\d{1,2}(?:st|nd|rd|th)\s*\)))"
        r"(?P<day>\d{1,2})(?:st|nd|rd|th)(?![\w])(?!\s+of\b))",
        re.I,
    ),
    "relative": re.compile(
        r"(?:(?<![\w])(?:on|for)\s+)?(?P<core>(?<![\w])(?:the\s+)?"
        r"(?P<rel>day\s+before\s+yesterday|day\s+after\s+tomorrow|yesterday|today|tonight|tomorrow|tmrw"
        r"|this\s+(?:morning|afternoon|evening)))(?![\w])",
        re.I,
    ),
    "weekday": re.compile(
        rf"(?P<core>(?<![\w])(?:(?P<q>on|last|next|this|coming)\s+)?"
        rf"(?P<wd>{_alternation(WEEKDAYS)})\.?)(?![\w])",
        re.I,
    ),
}

Kind = Literal["explicit", "yearless", "relative", "weekday", "invalid"]


@dataclass(frozen=True)
class DateMention:
    text: str  # the phrase as written, "January 20th"
    start: int  # span, including a leading "on"/"for"/"the"
    end: int
    kind: Kind
    year: int | None = None
    month: int | None = None
    day: int | None = None
    offset: int | None = None  # relative: days from today
    word: str | None = None  # relative: "tomorrow"; weekday: "last"/"next"/"nearest"
    weekday: int | None = None  # weekday mention: the day; explicit/year-less: a stated weekday to check
    problem: str | None = None  # invalid: why
    source: str = "prompt"  # "prompt", or what an LLM reported ("llm:date_text", "llm:iso_date", ...)
    timed: bool = False  # a clock time beside it ("2240Z on the 18th"): the day of a time, maybe not the flight's

    @property
    def key(self) -> tuple:
        """Same key, same date whatever the flight (used to spot two different dates)."""
        return (self.kind, self.year, self.month, self.day, self.offset, self.word, self.weekday)


@dataclass(frozen=True)
class Resolved:
    date: date | None
    resolution: str  # "explicit", "relative:tomorrow", "weekday:nearest Wednesday", "nearest occurrence of 20 Jan"
    problem: str | None = None  # "not_operating", "no_flight", "weekday_mismatch"


def month_day(month: int, day: int) -> str:
    return f"{day} {calendar.month_abbr[month]}"


def _checked(text: str, year: int | None, month: int, day: int) -> str | None:
    """Why this day/month/year is not a date, or None."""
    if not 1 <= month <= 12:
        return f"'{text}' is not a valid date (there is no month {month}; numbers are read day first, 20/01/2027)"
    name = calendar.month_name[month]
    days = calendar.monthrange(year if year is not None else 2000, month)[1]  # 2000: leap, allows 29 Feb
    if day < 1:
        return f"'{text}' is not a valid date (there is no day {day})"
    if day > days:
        if year is not None and month == 2 and day == 29:
            return f"'{text}' is not a valid date ({year} is not a leap year: February {year} has 28 days)"
        return f"'{text}' is not a valid date ({name} has {'at most ' if month == 2 else ''}{days} days)"
    return None


def _stated_weekday(m: re.Match[str]) -> int | None:
    return WEEKDAYS[m["wd"].lower()] if m["wd"] else None


def _dated(m: re.Match[str], month: int, day: int, year: int | None) -> DateMention:
    text = m["core"].strip()
    problem = _checked(text, year, month, day)
    if problem:
        return DateMention(text, m.start(), m.end(), "invalid", year, month, day, problem=problem)
    kind: Kind = "explicit" if year is not None else "yearless"
    return DateMention(text, m.start(), m.end(), kind, year, month, day, weekday=_stated_weekday(m))


def _month_is_a_word(name: str, m: re.Match[str], text: str) -> bool:
    """The month word of a day-and-month match read as the English word: "may" the verb ("18th may not"), or a month
    name in lowercase where the report writes names with capitals — but not "May" written so after a day ("on 1 May
    be …": a day, then the month's proper name)."""
    month = m["month"]
    verb = may_is_verb(month, text, m.end("month")) and not (name == "day_month" and capitalised_month(month, text))
    return verb or lowercase_word_not_month(month, text)


def _build(name: str, m: re.Match[str], text: str) -> DateMention | None:
    if name in ("day_month", "month_day") and _month_is_a_word(name, m, text):
        return None  # "18th may not": the verb, not 18 May (the day may still be read with the month before it)
    if name == "day_month" and day_taken_by_month_before(text, m.start("day")):
        return None  # "January 22nd may …": the day is January's, read by month_day
    if name == "iso":
        return _dated(m, int(m["mon"]), int(m["day"]), int(m["year"]))
    if name == "numeric":
        dated_flight = flight_just_written(text, m.start())  # "EY16 19/1"
        if m["year"] is None and (m["sep"] != "/" or not (m["prep"] or len(m["mon"]) == 2 or dated_flight)):
            return None  # "24/7", "1.5", "10-12": a bare d/m needs a slash, and "on"/"for", a month as "01" or a flight
        year = int(m["year"]) if m["year"] else None
        if year is not None and year < 100:
            year += 2000
        return _dated(m, int(m["mon"]), int(m["day"]), year)
    glued = name == "day_month" and m.start("month") == m.end("day")  # "19JAN": the ops style's date, whole
    if name == "day_month" and not (m["prep"] or m["wd"] or glued) and flight_ends_here(text[: m.start()]):
        return None  # "EY 1 January 1st", "Etihad 12 Jan": the number belongs to the flight (not "SN 19JAN": snow)
    if name in ("day_month", "month_day"):
        year = int(m["year"]) if m["year"] else None
        return _dated(m, MONTHS[m["month"].lower()], int(m["day"]), year)
    if name == "day_only":
        day = int(m["day"])
        text = m["core"].strip()
        if not 1 <= day <= 31:
            return DateMention(
                text, m.start(), m.end(), "invalid", day=day, problem=f"'{text}' is not a day of a month"
            )
        return DateMention(text, m.start(), m.end(), "yearless", day=day)
    if name == "relative":
        word = " ".join(m["rel"].lower().split())
        word = "tomorrow" if word == "tmrw" else word
        return DateMention(m["core"].strip(), m.start(), m.end(), "relative", offset=RELATIVE_DAYS[word], word=word)
    # weekday
    wd = m["wd"].lower()
    qualifier = m["q"].lower() if m["q"] else None
    if wd not in _FULL_WEEKDAYS and qualifier is None:
        return None  # "sat", "sun", "wed" alone are words
    return DateMention(
        m["core"].strip(), m.start(), m.end(), "weekday", word=WEEKDAY_MODES[qualifier], weekday=WEEKDAYS[wd]
    )


_LOG_SLASH = re.compile(r"(?<=[A-Za-z0-9])/(?=(?:19|20)\d{2}-\d)")


def find_dates(text: str) -> list[DateMention]:
    """Every date phrase, in order of appearance. Patterns run most specific first; each match is blanked
    out so that a later pattern cannot read part of it again ("20/01/2027" is not also "20/01").

    One reading asks this of the same report text about six times (the operating day, the flights, the window,
    the clearance …): the mentions (frozen) of the last few texts are kept, a fresh list is handed out each time."""
    return list(_dates_of(text))


@lru_cache(maxsize=32)
def _dates_of(text: str) -> tuple[DateMention, ...]:
    masked = _LOG_SLASH.sub(" ", text)  # "EY17/2027-01-21": a log line's flight, then its day
    found: list[DateMention] = []
    for name, pattern in _PATTERNS.items():
        for m in pattern.finditer(masked):
            mention = _build(name, m, masked)
            if mention is not None:
                found.append(mention)
                masked = masked[: m.start()] + " " * (m.end() - m.start()) + masked[m.end() :]
    for written, start, end, day in flight_days(masked):  # "EY462/18": the flight's day of the month
        problem = None if 1 <= day <= 31 else f"'{written}' is not a day of a month"
        found.append(DateMention(written, start, end, "invalid" if problem else "yearless", day=day, problem=problem))
    found = [replace(d, timed=True) if _clock_beside(text, d.start, d.end) else d for d in found]
    return tuple(sorted(found, key=lambda d: d.start))


# A clock time written right before a date ("STD 2240Z on the 18th", "at 14:30, 20 Jan") or right after it ("the
# 18th at 2240Z"): with a zone letter or a colon, so a flight number or a year is never one.
_CLOCK = r"(?:(?:[01]\d|2[0-3]):[0-5]\d|(?:[01]\d|2[0-3])[0-5]\d\s?(?:z|utc|lt)\b)"
_CLOCK_BEFORE = re.compile(_CLOCK + r"[\s,]*$", re.I)
_CLOCK_AFTER = re.compile(r"[\s,]*(?:at\s+)?" + _CLOCK, re.I)


def _clock_beside(text: str, start: int, end: int) -> bool:
    return (
        _CLOCK_BEFORE.search(text[max(0, start - 12) : start]) is not None or _CLOCK_AFTER.match(text, end) is not None
    )


def from_iso(text: str, source: str) -> DateMention | None:
    """An ISO date an LLM computed ("2027-01-20"), as an explicit mention; None if it is not one."""
    m = _PATTERNS["iso"].fullmatch(text.strip())
    if not m:
        return None
    mention = _build("iso", m, text)
    assert mention is not None  # the "iso" pattern always builds a mention (explicit or invalid)
    return replace(mention, source=source)


def weekday_date(today: date, weekday: int, mode: str) -> date:
    ahead = (weekday - today.weekday()) % 7
    if mode == "next":
        return today + timedelta(days=ahead or 7)
    if mode == "last":
        return today - timedelta(days=(7 - ahead) % 7 or 7)
    return today + timedelta(days=ahead - 7 if ahead > 3 else ahead)  # nearest, -3..+3


def nearest(candidates: Sequence[date], today: date) -> date | None:
    """The candidate nearest to today; on a tie the future one."""
    return min(candidates, key=lambda d: (abs((d - today).days), d < today), default=None)


def resolve(mention: DateMention, today: date, operating: Sequence[date] | None) -> Resolved:
    """The date a mention means. ``operating``: the dates the flight operates (None: flight not known),
    needed only by year-less mentions."""
    if mention.kind == "explicit":
        assert mention.year is not None and mention.month is not None and mention.day is not None  # see _dated
        resolved = Resolved(date(mention.year, mention.month, mention.day), "explicit")
    elif mention.kind == "relative":
        assert mention.offset is not None  # a relative mention always carries its offset
        resolved = Resolved(today + timedelta(days=mention.offset), f"relative:{mention.word}")
    elif mention.kind == "weekday":
        assert mention.weekday is not None and mention.word is not None  # a weekday mention carries day and mode
        name = calendar.day_name[mention.weekday]
        return Resolved(weekday_date(today, mention.weekday, mention.word), f"weekday:{mention.word} {name}")
    elif mention.kind == "yearless":
        assert mention.day is not None  # see _dated and day_only
        month = mention.month
        rule = f"nearest occurrence of {month_day(month, mention.day) if month else mention.text}"
        if operating is None:
            return Resolved(None, rule, "no_flight")
        candidates = [
            d
            for d in operating
            if d.day == mention.day
            and (month is None or d.month == month)
            and (mention.weekday is None or d.weekday() == mention.weekday)
        ]
        found = nearest(candidates, today)
        return Resolved(found, rule, None if found else "not_operating")
    else:
        return Resolved(None, "invalid", "invalid")
    assert resolved.date is not None  # explicit and relative mentions always resolve to a date
    if mention.weekday is not None and resolved.date.weekday() != mention.weekday:
        return Resolved(resolved.date, resolved.resolution, "weekday_mismatch")
    return resolved
