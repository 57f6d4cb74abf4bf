"""When the report says the cause will clear, in its own words: durations, delays past the schedule and clock times.

A family of phrasings, not one phrase: a duration in digits or words ("about 2 h 30", "engineers need about three
hours", "an hour and a half", "1.5 hrs", "2-3 hours"), a delay past the schedule ("ETD +220", "EST DLA 140MIN",
"ETD slips by 315 mins", "a CTOT an hour after schedule", "CTOT +60") and a clock time after a word that names the
end of the cause ("lift by 10:30 local", "CTOT 1135Z", "ETD 1420", "fit again at 14:00Z", "released at 09:00").

Read on the report with its instructing sentences blanked (sentences.py): an instruction states no estimate. Dates
and UTC windows ("closed 14:00-18:00Z") are masked first: a window is the reader's (report.py), a date is no time.
Nothing here knows the flight or the clock: `clearance.py` places each estimate in time and checks it against the
data, refusing one that contradicts it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .dates import find_dates
from .report import NUMBER_WORDS, WINDOW
from .sentences import blank_instructions

# What a stated estimate is measured from: `delay` — past the scheduled departure ("ETD +220"); `work` — from when
# the decision is taken ("engineers need three hours"); `clock` — a time of day ("lift by 10:30 local").
EstimateBase = Literal["delay", "work", "clock"]
Zone = Literal["utc", "local", "unstated"]


@dataclass(frozen=True)
class StatedEstimate:
    """One estimate the report states, with the words and span it was read from."""

    base: EstimateBase
    words: str
    span: tuple[int, int]
    minutes: int | None = None  # delay and work: the estimate
    upper_minutes: int | None = None  # a range's upper end ("2-3 hours"), else None
    clock: tuple[int, int] | None = None  # clock: (hour, minute)
    zone: Zone = "unstated"
    departure: bool = False  # clock: a departure time (CTOT, ETD, EOBT), which cannot be before the schedule


_WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_AMOUNT = rf"\d{{1,4}}(?:[.,]\d{{1,2}})?|{_WORDS}|a couple of|half an|an|a"
_HOURS = r"h|hrs?|hours?"
_MINUTES = r"mins?|minutes?|mn"
# "2 h 30", "2h30", "2 hours and 30 minutes", "an hour and a half", "one and a half hours", "90 minutes", "140MIN",
# "2-3 hours", "between 2 and 3 hours"
DURATION = re.compile(
    rf"(?<![\w.:/])(?P<between>between\s+)?(?P<amount>{_AMOUNT})(?P<half>\s+and\s+a\s+half)?"
    rf"(?:\s*(?P<join>-|–|to|or|and)\s*(?P<upper>\d{{1,4}}|{_WORDS}))?"
    rf"\s*-?\s*(?:(?P<hours>{_HOURS})(?:\s*(?:and\s+)?(?:(?P<plus>\d{{1,2}})\s*(?:{_MINUTES})?|(?P<andhalf>a\s+half)))?"
    rf"|(?P<minutes>{_MINUTES}))(?![\w/])",
    re.I,
)
# A delay as a bare count past the schedule: "ETD +220", "CTOT +60", "DLA 120", "delayed by 45" (minutes)
PLUS = re.compile(
    r"\b(?:etd|eobt|tobt|ctot|slot|estimated departure|dla|dly|delay(?:ed)?)\s*\+\s*(\d{1,3})(?![\d:]|\s*(?:h|hrs?|hours?)\b)",
    re.I,
)
BARE_DELAY = re.compile(r"\b(?:dla|dly|delay(?:ed)?)\s+(?:by\s+)?(\d{1,3})(?![\d/:]|[.,]\d|\s*(?:%|[a-z]))", re.I)
# Within the clause before a duration: it is a delay past the schedule, not a time to work
DELAY_CUES = re.compile(
    r"\b(?:dla|dly|delay\w*|late|behind|slip\w*|etd|eobt|tobt|ctots?|slots?|estimated departure|hold|held|retim\w*"
    r"|push\w*\s+back|after\s+schedule|past\s+schedule)\b",
    re.I,
)
# Right after a duration: it times something that is not the estimate ("two hours before departure", "queues an
# hour long", "a seven hour flight", "90 minutes ago"). "Before" opening a clause that says what the flight can then do
# ("60 minutes before it can push", "two hours before the aircraft will be released") is the wait itself.
WAIT_BEFORE = r"before\s+(?:[\w'-]+\s+){1,3}?(?:can|could|will|would|may|is\s+able|are\s+able|gets?\s+to)\b"
NOT_AN_ESTIMATE_AFTER = re.compile(
    rf"\s*(?!{WAIT_BEFORE})(?:before|prior|ago|earlier|since|long|flight|sector|block|duty|layover|turn\w*|connection"
    r"|into|of\s+flight)\b",
    re.I,
)
AFTER_WINDOW = 48  # characters after a duration read for NOT_AN_ESTIMATE_AFTER: "before" and a three-word subject
NOT_AN_ESTIMATE_BEFORE = re.compile(r"\b(?:last|past|first|within\s+the\s+last|already|for\s+the\s+past)\s*$", re.I)
# A clock time: "10:30", "1030", "10.30", with its zone ("1h30" is a duration, as "take 1h30" says)
CLOCK = re.compile(
    r"(?<![\w:/.+-])(?P<h>\d{1,2})[:.]?(?P<m>\d{2})(?:\s?(?P<meridiem>[ap])(?:\.m\.?|m)(?![a-z]))?"
    r"(?:\s*(?P<zone>z|utc|gmt|local(?:\s+time)?|lt|lcl|l)\b)?(?![\w/%]|:\d|\s*(?:hours?|hrs?|h|mins?|minutes?)\b)",
    re.I,
)
# Words naming the end of the cause that put a clock time on it, at most three words before the time
CLEARING = (
    r"releas\w*|etr|ready|fit|serviceable|in\s+service|rectif\w*|fix\w*|repair\w*|re-?open\w*|open\w*|lift\w*"
    r"|clear\w*|improv\w*|avail\w*|resum\w*|restor\w*|back|expected|expect|until|till"
)
# A departure time (the schedule's own time is none of these: "departing at 14:20" states no estimate)
DEPARTING = r"ctot|cto|slot(?:\s+time)?|etd|eobt|tobt|estimated\s+departure|new\s+departure|off[\s-]+blocks?"
CLOCK_CUE = re.compile(
    rf"\b(?P<cue>{DEPARTING}|{CLEARING})\b(?:\s+[\w'-]+){{0,3}}?\s*(?:by|at|around|about|from|after|for|to|:|=)?\s*$",
    re.I,
)


def _amount(word: str) -> float:
    word = word.lower().replace(",", ".")
    if word in ("a", "an"):
        return 1
    if word == "a couple of":
        return 2
    if word == "half an":
        return 0.5
    return float(NUMBER_WORDS.get(word) or word)


def _duration_minutes(m: re.Match[str]) -> tuple[int, int | None]:
    """A duration match → (minutes, a range's upper minutes or None)."""
    per = 60 if m.group("hours") else 1
    amount = _amount(m.group("amount"))
    half = 0.5 if m.group("half") or m.group("andhalf") else 0
    minutes = round((amount + half) * per) + (int(m.group("plus")) if m.group("plus") else 0)
    upper = m.group("upper")
    if upper is None:
        return minutes, None
    if m.group("join") == "and" and not m.group("between"):  # "45 and 30 min respectively": a list, the longest
        return max(minutes, round(_amount(upper) * per)), None
    return minutes, round(_amount(upper) * per)


_UNIT_AFTER = re.compile(rf"\s*(?:{_HOURS}|{_MINUTES})\b", re.I)


def _masked(text: str) -> str:
    """The text with its dates and UTC windows blanked (offsets kept): neither is an estimate's time."""
    out = list(text)
    for d in find_dates(text):
        out[d.start : d.end] = " " * (d.end - d.start)
    masked = "".join(out)
    for w in WINDOW.finditer(masked):
        h1, m1, h2, m2 = (int(g) for g in w.groups()[:4])
        counted = _UNIT_AFTER.match(masked, w.end()) is not None  # "100 and 130 min": counts, not times
        if h1 < 24 and h2 < 24 and m1 < 60 and m2 < 60 and (h1, m1) != (h2, m2) and not counted:
            out[w.start() : w.end()] = " " * (w.end() - w.start())
    return "".join(out)


def _clause_before(text: str, at: int, width: int = 60) -> str:
    """The words before `at` in its clause (a sentence stop or a line ends a clause)."""
    before = text[max(0, at - width) : at]
    return re.split(r"[.;!?\n]\s|\n", before)[-1]


def _hour_and_minute(m: re.Match[str]) -> tuple[int, int]:
    """A CLOCK match's time on the 24-hour clock: "9:05 pm" is 21:05, "12:30 am" 00:30 (a 12-hour clock's hour
    outside 1-12 is left as written, for intake/clock.py refuses it before any reading)."""
    hour, minute = int(m.group("h")), int(m.group("m"))
    if m.group("meridiem") and 1 <= hour <= 12:
        hour = hour % 12 + (12 if m.group("meridiem").lower() == "p" else 0)
    return hour, minute


def _cued_clocks(masked: str) -> list[tuple[re.Match[str], str, re.Match[str]]]:
    """Each clock time written after a word naming when the cause ends (CLOCK_CUE), with the clause before it and
    the cue, possible or not."""
    found = []
    for m in CLOCK.finditer(masked):
        before = _clause_before(masked, m.start(), 40)
        if (cue := CLOCK_CUE.search(before)) is not None:
            found.append((m, before, cue))
    return found


def cued_clock_times(report: str) -> list[re.Match[str]]:
    """The clock times the reading of estimates takes as times of day, possible or not (intake/clock.py refuses
    the impossible ones before any reading)."""
    return [m for m, _, _ in _cued_clocks(_masked(blank_instructions(report)))]


def stated_estimates(report: str) -> list[StatedEstimate]:
    """Every estimate of when the cause clears the report states, in order (see the module docstring)."""
    text = _masked(blank_instructions(report))
    found: list[StatedEstimate] = []
    taken: list[tuple[int, int]] = []

    def free(span: tuple[int, int]) -> bool:
        return not any(a < span[1] and span[0] < b for a, b in taken)

    for m in PLUS.finditer(text):
        found.append(StatedEstimate("delay", report[m.start() : m.end()], m.span(), minutes=int(m.group(1))))
        taken.append(m.span())
    for m, before, cue in _cued_clocks(text):  # before durations: "10h30" after "fit at" is a time of day
        hour, minute = _hour_and_minute(m)
        if hour > 23 or minute > 59 or not free(m.span()):
            continue
        zone_word = (m.group("zone") or "").lower()
        zone: Zone = "utc" if zone_word in ("z", "utc", "gmt") else "local" if zone_word else "unstated"
        start = m.start() - (len(before) - cue.start())
        words = " ".join(report[start : m.end()].split())
        departure = re.search(rf"\b(?:{DEPARTING})\b", text[start : m.start()], re.I) is not None
        found.append(
            StatedEstimate("clock", words, (start, m.end()), clock=(hour, minute), zone=zone, departure=departure)
        )
        taken.append(m.span())
    for m in DURATION.finditer(text):
        after, before = text[m.end() : m.end() + AFTER_WINDOW], _clause_before(text, m.start())
        if not free(m.span()) or NOT_AN_ESTIMATE_AFTER.match(after) or NOT_AN_ESTIMATE_BEFORE.search(before):
            continue
        minutes, upper = _duration_minutes(m)
        if minutes <= 0:
            continue
        clause = before + text[m.start() : m.end() + 25]
        base: EstimateBase = "delay" if DELAY_CUES.search(clause) else "work"
        found.append(StatedEstimate(base, report[m.start() : m.end()], m.span(), minutes=minutes, upper_minutes=upper))
        taken.append(m.span())
    for m in BARE_DELAY.finditer(text):
        if free(m.span()):
            found.append(StatedEstimate("delay", report[m.start() : m.end()], m.span(), minutes=int(m.group(1))))
            taken.append(m.span())
    return sorted(found, key=lambda e: e.span)
