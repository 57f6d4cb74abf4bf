"""The one crew member a report is about: a position named for one person, never the cabin crew as a group.

A crew cause (AHM 730 63–68), a crew awaited from another flight (94, 95) or a member's own industrial action (97)
is about one member when the report names that member's position: "the captain", "the purser", "a cabin
attendant", "CC K MARTIN". The scope is then the crew member, and Validate checks that position is rostered on the
flight. The cabin crew as a whole is nobody in particular: "the cabin crew on EY318 miscounted", "2 cabin crew
short", "CC SHORT BY 2", "cabin crew bus late", "CC rotation" concern the flight's crew (scope flight; the position
is kept, and a stated count, so a crew cause still takes that many cabin members off the flight). The plain words
"cabin crew" name one member only beside a person's name ("cabin crew Olivia Jones", "Daniel Brown (cabin
crew)"); the abbreviations that stand for one ("CC", "C/A") do unless a count or what follows makes them the crew.
A generic "crew member" stands for a cabin member only where the cause is the cabin's (66, 67, 68, 94).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .lexicon_words import GENERIC_CREW_MEMBER
from .normalise import Normalised

__all__ = ["POSITIONS", "NamedCrew", "named_position"]

# The rostered position a report names (normalised words), most specific first.
POSITIONS: tuple[tuple[str, str], ...] = (
    (r"flight engineers?", "FLIGHT_ENGINEER"),
    (r"second officers?|2nd officers?|cruise relief|relief pilots?", "SECOND_OFFICER"),
    (r"first officers?|co-?pilots?", "FIRST_OFFICER"),
    (r"captains?|commanders?|skippers?", "CAPTAIN"),
    (
        # the senior cabin member's titles airlines give ("cabin director", "in-flight manager", "lead flight
        # attendant") before the plain cabin words that would match inside them
        r"pursers?|cabin managers?|cabin supervisors?|cabin seniors?|senior cabin|chief steward\w*"
        r"|cabin services? directors?|csd|cabin directors?|in-?flight managers?|(?:lead|senior) flight attendants?",
        "PURSER",
    ),
    (
        r"cabin crew members?|cabin crew|cabin attendants?|flight attendants?|stewards?|stewardess\w*|"
        + GENERIC_CREW_MEMBER,
        "CABIN",
    ),
)
_CABIN_CODES = frozenset({66, 67, 68, 94})
_PLAIN_GROUP = re.compile(r"cabin crews?", re.I)  # the plain words, not an abbreviation written out
_PLURAL = re.compile(r".*(?:members|attendants|stewards|stewardesses|crews)", re.I | re.S)
_NAME = r"(?:[A-Z][a-z'’-]+|[A-Z](?:\.\s*|\s+))\s*[A-Z][A-Za-z'’-]+"
_NAMED_AFTER = re.compile(rf"\s*[:,(]?\s*{_NAME}")
_NAMED_BEFORE = re.compile(rf"{_NAME}\s*\(\s*$")
# what makes the cabin crew many: a count of two or more (kept: that many are meant), or the crew as what something
# belongs to or concerns
_NUMBERS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = r"([2-9]|two|three|four|five|six)"
_COUNT_BEFORE = re.compile(rf"\b{_COUNT}\s+(?:more\s+|extra\s+)?$", re.I)
_COUNT_AFTER = re.compile(rf"\s*(?:short\s+(?:by\s+)?|x\s*){_COUNT}\b", re.I)
_GROUP_AFTER = re.compile(
    r"\s*(?:bus|transport|rotation|procedural|procedure|error|brief\w*|boarding|shortage|union|minimum|complement"
    r"|roster\w*|standby\w*|scheduling|planning|are|were)\b",
    re.I,
)


@dataclass(frozen=True)
class NamedCrew:
    """A position the report names: its words (`match`, in the normalised text), and how many members it means —
    one, a stated count, or None for the crew as a group."""

    match: re.Match[str]
    position: str
    count: int | None = 1
    count_words: tuple[int, int] | None = None  # the count's span in the normalised text

    @property
    def one(self) -> bool:
        return self.count == 1


def _cabin(norm: Normalised, text: str, m: re.Match[str]) -> NamedCrew:
    """How many members the cabin words at `m` stand for (see the module docstring)."""
    counted = _COUNT_BEFORE.search(text, 0, m.start()) or _COUNT_AFTER.match(text, m.end())
    if counted is not None:
        said = counted.group(1).lower()
        return NamedCrew(m, "CABIN", _NUMBERS.get(said) or int(said), counted.span(1))
    start, end = norm.source(*m.span())
    if _PLURAL.fullmatch(m.group()) or _GROUP_AFTER.match(text, m.end()):
        return NamedCrew(m, "CABIN", None)
    if _PLAIN_GROUP.fullmatch(norm.original[start:end]):
        named = _NAMED_AFTER.match(norm.original, end) or _NAMED_BEFORE.search(norm.original[:start])
        return NamedCrew(m, "CABIN", 1 if named else None)
    return NamedCrew(m, "CABIN")


def named_position(norm: Normalised, text: str, codes: set[int]) -> NamedCrew | None:
    """The first position `text` (the normalised report, instructions blanked) names for one member, else the cabin
    crew it names as a group (counted first); a generic "crew member" only where the causes read (`codes`) are the
    cabin's."""
    groups: list[NamedCrew] = []
    for pattern, position in POSITIONS:
        if position == "CABIN" and not _CABIN_CODES & codes:
            pattern = pattern.replace("|" + GENERIC_CREW_MEMBER, "")
        for m in re.finditer(rf"(?<![\w-])(?:{pattern})(?![\w])", text, re.I | re.S):
            named = _cabin(norm, text, m) if position == "CABIN" else NamedCrew(m, position)
            if named.one:
                return named
            groups.append(named)
    return min(groups, key=lambda g: g.count is None, default=None)
