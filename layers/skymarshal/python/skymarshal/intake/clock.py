"""Times written in a report that cannot be times: refused on one line naming them, never read past.

A report's clock times are read in several places (a window, an estimate, a slot, an MVT-like line); a time that
cannot be (25:30Z, ETD 2575, AD2575/2590, 181275Z) is a slip of the writer's that no reading can repair, so the
report is refused before anything is read from it. Only what is surely written as a time is checked: a colon
time, four or six digits carrying a zone no quantity carries (Z, UTC, GMT: "4500 L" is fuel), four digits after a
time abbreviation (ETD, CTOT …) or in an MVT time element (AD, AA, ED, EA, EB, EO), and both ends of a zoned
window ("1900-2575Z"). Bare numbers ("uplift to 5600 kg", "since 1975") are not times and are left alone.
"""

from __future__ import annotations

import re

_ZONE = r"\s?(?:Z|z|UTC|utc|GMT|gmt|LT|lt|L|LCL|lcl)(?![A-Za-z])"
# A bare number's zone must be one no quantity carries: "4500 L", "5600L", "3000 LT" are litres of fuel, not 45:00
# local (a colon, a time abbreviation or an MVT element still makes "2575LT" a time)
_BARE_ZONE = r"\s?(?:Z|z|UTC|utc|GMT|gmt|LCL|lcl)(?![A-Za-z])"
_AFTER_ABBREVIATION = r"(?:NEW\s+)?(?:ETD|ETA|STD|STA|ATD|ATA|CTOT|EOBT|TOBT|ETR|ETOT|SLOT)"
_PATTERNS: tuple[re.Pattern[str], ...] = (
    # 25:30Z, 09:75 UTC, at 25:30, ETD 25:30 (a ratio "50:50" or a duration "26:00 hrs" is no clock time)
    re.compile(rf"(?<![\d:])(?P<t>\d{{1,2}}:\d{{2}})(?![\d:]){_ZONE}"),
    re.compile(
        rf"(?<![\w])(?:at|until|till|from|by|before|after|{_AFTER_ABBREVIATION})\s*[:.]?\s*(?P<t>\d{{1,2}}:\d{{2}})(?![\d:])",
        re.I,
    ),
    # 2575Z, 181275Z, 2575 UTC
    re.compile(rf"(?<![\w/.:+-])(?P<t>\d{{4}}|\d{{6}}){_BARE_ZONE}"),
    # ETD 2575, CTOT 1960, NEW ETD: 2575
    re.compile(rf"(?<![\w]){_AFTER_ABBREVIATION}\s*[:.]?\s*(?P<t>\d{{4}}|\d{{6}})(?![\d:/.,]\d)", re.I),
    # AD2575/2590, ED181275 (an MVT time element written in free text)
    re.compile(r"(?<![\w])(?:AD|AA|ED|EA|EB|EO)(?P<t>\d{4}|\d{6})(?:/(?P<u>\d{4}|\d{6}))?(?![\w])"),
    # 2575-2600Z, 1900-2575Z: both ends of a zoned window
    re.compile(rf"(?<![\w/.:-])(?P<t>\d{{4}})\s*[-–]\s*(?P<u>\d{{4}}){_BARE_ZONE}"),
)


def clock_problem(written: str) -> str | None:
    """Why a written HH:MM, HHMM or DDHHMM is not a time, or None when it is one (24:00 / 2400 is midnight)."""
    digits = written.replace(":", "")
    if ":" in written:
        hour, minute = written.split(":")
        day = None
    else:
        day, hour, minute = (
            (digits[:2], digits[2:4], digits[4:]) if len(digits) == 6 else (None, digits[:2], digits[2:])
        )
    if day is not None and not 1 <= int(day) <= 31:
        return f"there is no day {int(day)} of a month"
    if int(hour) == 24 and int(minute) == 0:
        return "a day runs 00:00-23:59, midnight is 0000"
    if int(hour) > 23:
        return f"there is no hour {int(hour)} in a day"
    if int(minute) > 59:
        return f"there is no minute {int(minute)} in an hour"
    return None


# A 12-hour clock time ("9:05 pm", "13pm", "0:30 a.m."): its hour runs 1-12.
_TWELVE_HOUR = re.compile(r"(?<![\w:.])(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s?(?:[ap]\.m\.?|[ap]m)(?![a-z])", re.I)
# A number followed by a unit of measure is a quantity, never a clock time ("between 1500 and 2575 kg",
# "100 and 130 min", "1800 pax"): the reader's window and estimate forms take bare numbers, so what follows
# tells the two apart (a zone, punctuation or any other word leaves it a time).
_QUANTITY_AFTER = re.compile(
    r"\s*(?:%|percent|kgs?|lbs?|t|tonnes?|tons?|l|lt|ltrs?|litres?|liters?|gal|pax|passengers?|seats?|bags?"
    r"|pcs|pieces?|people|units?|x|nm|km|ft|feet|m|kts?|knots?|mins?|minutes?|mn|h|hrs?|hours?)\b",
    re.I,
)
# A written end the reader surely took as a clock time: with a separator ("09h75", "09.75", "9:75") or four digits
# Four bare digits alone that read as a year are one unless a zone follows ("since 1975"; "fit 1975 local" is a time)
_A_YEAR = re.compile(r"(?:19|20)\d{2}")
_SURELY_A_CLOCK = re.compile(r"\d{1,2}[:h.]\d{2}|\d{4}", re.I)


def _twelve_hour_problem(m: re.Match[str]) -> str | None:
    hour, minute = int(m["h"]), int(m["m"] or 0)
    if not 1 <= hour <= 12:
        return f"a 12-hour clock has no hour {hour}"
    return f"there is no minute {minute} in an hour" if minute > 59 else None


def _reader_times(text: str) -> list[tuple[int, str, str, str]]:
    """(start, phrase, written, value) of each time the reader takes from its own forms (a window's two ends, a
    time after a word naming when the cause ends), where the writing surely makes it a time."""
    from .clearance_words import cued_clock_times  # the readers of the forms; they import nothing of this module
    from .report import written_windows

    found = []
    for m in written_windows(text):
        if _QUANTITY_AFTER.match(text, m.end()) is not None:
            continue
        for hour, minute in ((1, 2), (3, 4)):
            written = text[m.start(hour) : m.end(minute)]
            if _SURELY_A_CLOCK.fullmatch(written):
                found.append((m.start(hour), m.group(0).strip(), written, f"{m[hour]}:{m[minute]}"))
    for m in cued_clock_times(text):
        written = text[m.start("h") : m.end("m")]
        a_year = _A_YEAR.fullmatch(written) is not None and not m["zone"]  # "in service since 1975"
        if _SURELY_A_CLOCK.fullmatch(written) and _QUANTITY_AFTER.match(text, m.end()) is None and not a_year:
            found.append((m.start("h"), m.group(0).strip(), written, f"{m['h']}:{m['m']}"))
    return found


def impossible_time(text: str) -> str | None:
    """One line naming the first impossible time written in the text, or None: the written forms above, the
    reader's own window and estimate forms (a time it reads is a time it checks), and 12-hour clock times."""
    found: list[tuple[int, str, str]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            for group in ("t", "u"):
                value = m.groupdict().get(group)
                if value and (problem := clock_problem(value)):
                    found.append((m.start(group), m.group(0).strip(), f"{value}: {problem}"))
    for start, phrase, written, value in _reader_times(text):
        if problem := clock_problem(value):
            found.append((start, phrase, f"{written}: {problem}"))
    for m in _TWELVE_HOUR.finditer(text):
        if problem := _twelve_hour_problem(m):
            found.append((m.start(), m.group(0).strip(), f"{m.group(0).strip()}: {problem}"))
    if not found:
        return None
    _, phrase, why = min(found)
    return f"'{phrase}' is not a time ({why}): write times as HHMM or HH:MM, e.g. 0930Z"
