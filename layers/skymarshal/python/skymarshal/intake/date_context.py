"""Where a date can stand: the context that makes a month word a verb ("may not") or a number after a flight its
day ("EY462/18", "EY16 19/1"). Kept apart from dates.py's patterns, which it only vetoes or adds to."""

from __future__ import annotations

import re

from .flights import is_designator

# "May" is the one month name that is also a common English word (the modal verb). It is a month only where a
# date can stand: a word that can only follow the verb ("may not", "may be", "may need") makes it the verb, so
# "on January 22nd may not be able to land" is 22 January, not 22 May. A year, a number, punctuation or a
# noun after it ("18 May 2027", "18 May: fog", "18MAY AUH") keep the month.
# words that follow the verb and never a date ("18 May still AOG", "18 May also" stay dates)
_MODAL_NEXT = frozenset(
    {
        "not",
        "be",
        "have",
        "need",
        "require",
        "cause",
        "affect",
        "take",
        "get",
        "become",
        "possibly",
        "probably",
        "never",
        "therefore",
        "result",
        "lead",
        "miss",
        "arrive",
        "depart",
        "land",
        "operate",
        "fly",
        "go",
        "leave",
        "divert",
        "return",
        "continue",
        "exceed",
        "run",
        "remain",
        "suffer",
        "face",
        "experience",
        "see",
        "incur",
        "push",
        "slip",
    }
)
_NEXT_WORD = re.compile(r"\s+([a-z]+)\b", re.I)


def may_is_verb(month: str, text: str, end: int) -> bool:
    """Is the month word `month`, ending at `end` in `text`, the verb \"may\"?"""
    if month.lower() != "may":
        return False
    after = _NEXT_WORD.match(text, end)
    return after is not None and after[1].lower() in _MODAL_NEXT


# Month names that are also English words ("may" the verb, "march" and "mar" the verbs). A month is a proper
# noun, written with its capital: in a report that uses capitals at all, such a word written all in lowercase is
# the word ("Flight EY12 on 22 may well be late"). A report written wholly in lowercase or in capitals (telex)
# says nothing by its case, and the other rules decide.
_MONTHS_THAT_ARE_WORDS = frozenset({"may", "march", "mar"})
_A_CAPITAL = re.compile(r"[A-Z]")
_A_LOWER = re.compile(r"[a-z]")


def capitalised_month(month: str, text: str) -> bool:
    """Is `month` written with its capital alone ("May", not "may" or "MAY") in a report that writes in mixed case?
    After a day ("on 1 May be …") that is the month's proper name, whatever word follows."""
    return month[:1].isupper() and month[1:].islower() and _A_LOWER.search(text) is not None


def lowercase_word_not_month(month: str, text: str) -> bool:
    """Is `month`, as written in `text`, an English word in lowercase where the report capitalises names?"""
    return month.lower() in _MONTHS_THAT_ARE_WORDS and month.islower() and _A_CAPITAL.search(text) is not None


# A day written right after a month name is that month's ("January 22nd", "Jan the 22nd"): a month word after
# the same number cannot take it too ("on January 22nd may not be able to land" is 22 January, whatever follows
# "may"). A number has one month.
_MONTH_JUST_BEFORE = re.compile(
    r"(?<![a-z])(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?"
    r"|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?\s*(?:the\s+)?$",
    re.I,
)
_MONTH_REACH = 16  # characters before a day that can hold a month name, a full stop and "the"


def day_taken_by_month_before(text: str, day_start: int) -> bool:
    """Is the day number starting at `day_start` written right after a month name?"""
    return _MONTH_JUST_BEFORE.search(text[max(0, day_start - _MONTH_REACH) : day_start]) is not None


# A flight number just written ("EY16 ", "ey 311 "), perhaps with its station or route as the shorthand writes them
# ("ey336 hyd 18/1", "EY462 AUH-MEL 18/1"): a bare day/month after it is its date. The two characters before its
# digits must be an airline designator as flights.py reads one, so an aircraft type, a gate or a stand ("B787/9",
# "gate B12/14") dates nothing; a three-letter word is a station only when it is not a word of the sentence
# ("EY16 for 24/7 support": no date).
_NOT_STATIONS = r"for|the|and|was|are|has|had|not|but|all|any|per|via|due|off|out|its|our|new|now|one|two|six|ten"
_STATION_AFTER = rf"(?:\s+(?!(?:{_NOT_STATIONS})\b)[A-Z]{{3}}(?:[-/][A-Z]{{3}})?)?"
_FLIGHT_BEFORE = re.compile(
    rf"(?<![\w-])(?P<code>[A-Z]{{2}}|[A-Z]\d|\d[A-Z])(?P<sep>\s?)\d{{1,4}}[A-Z]?{_STATION_AFTER}\s*[,:]?\s*$", re.I
)
# The telex and MVT way of dating a flight: its day of the month after a slash ("EY462/18", "EY18/19 LHR"), not a
# day/month ("EY16/19/1"). "EY11/12" is read so too: a day the flight does not fly is refused, never guessed.
_FLIGHT_DAY = re.compile(
    r"(?<![\w-])(?P<code>[A-Z]{2}|[A-Z]\d|\d[A-Z])(?P<sep>\s?)\d{1,4}[A-Z]?(?P<core>/(?P<day>\d{1,2}))"
    r"(?![\w/:.]\d|\d|/|\.\d)",
    re.I,
)


def _designated(m: re.Match[str] | None) -> bool:
    return m is not None and is_designator(m["code"], m["sep"])


def flight_days(masked: str) -> list[tuple[str, int, int, int]]:
    """Each "/DD" dating the flight written just before it: (text, start, end, day)."""
    return [
        (m["core"], m.start("core"), m.end("core"), int(m["day"]))
        for m in _FLIGHT_DAY.finditer(masked)
        if _designated(m)
    ]


_FLIGHT_REACH = 32  # characters before a date that can hold the flight number, its route and the spaces after it


def flight_just_written(text: str, start: int) -> bool:
    """Does a flight number end just before `start` ("EY16 19/1")? Only the few characters before it are searched
    (the look-behind still sees what precedes them), not the whole text once per date."""
    return _designated(_FLIGHT_BEFORE.search(text, max(0, start - _FLIGHT_REACH), start))
