"""The disruption in the prompt's own words: what is left once the flight and date phrases are taken out.

"Flight EY123 on January 20th had a mechanical failure" → "mechanical failure". Only connecting words at the
edges are trimmed ("had a", "was", "on", punctuation); the rest is kept verbatim — including any text that
reads like an instruction, which extraction never interprets (it is data for the agents, whose safety
rules are enforced elsewhere in code).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .flights import FLIGHT_LEAD, NAME_LEAD

_MARK = "\x00"  # stands for a removed flight or date phrase

# "Flight EY123", "Etihad flight EY123", "Etihad Airways EY123": the words naming a flight whose number was
# taken out go with it.
_FLIGHT_WORDS = re.compile(rf"(?:{NAME_LEAD}|{FLIGHT_LEAD}){_MARK}", re.I)

# Words that join the flight to its disruption ("EY123 had a ...", "... was cancelled", "... due to fog").
_LEADING = re.compile(
    r"^(?:[\s,.;:!?/)\]'\"–—-]+|(?:has|had|have|was|were|is|are|experienced|experiencing|experiences|reported|"
    r"reports|suffered|suffering|suffers|got|having|encountered|encountering|with|due\s+to|because\s+of|"
    r"and|but|on|for|of|at|a|an|the)(?![\w]))+",
    re.I,
)
# Dangling words before a removed phrase ("mechanical failure on EY123", "delay to flight 123").
_TRAILING = re.compile(r"(?:[\s,.;:!?/(\['\"–—-]+|(?<![\w])(?:on|for|of|to|with|at|and|the|a|an|dated))+$", re.I)
_PUNCTUATION = re.compile(r"[,.;:!?–—-]")


def _trim(piece: str) -> tuple[str, bool, bool]:
    """The piece without edge connectors, and whether punctuation was cut at its start / end."""
    lead = _LEADING.match(piece)
    head = lead.group() if lead else ""
    rest = piece[len(head) :]
    tail = _TRAILING.search(rest)
    tail_text = tail.group() if tail else ""
    core = rest[: len(rest) - len(tail_text)].strip()
    return core, bool(_PUNCTUATION.search(head)), bool(_PUNCTUATION.search(tail_text))


def describe(prompt: str, spans: Iterable[tuple[int, int]]) -> str:
    """The prompt without the given (flight and date) spans and their connecting words, whitespace collapsed.
    Pieces that punctuation separated are joined with "; ", others with a space."""
    text = prompt
    for start, end in sorted(set(spans), reverse=True):
        text = text[:start] + _MARK + text[end:]
    text = _FLIGHT_WORDS.sub(_MARK, text)
    parts: list[str] = []
    cut_before = False
    for piece in text.split(_MARK):
        core, cut_lead, cut_tail = _trim(" ".join(piece.split()))
        if core:
            if parts:
                parts.append("; " if (cut_before or cut_lead) else " ")
            parts.append(core)
            cut_before = cut_tail
        else:
            cut_before = cut_before or cut_lead or cut_tail or bool(_PUNCTUATION.search(piece))
    return "".join(parts)
