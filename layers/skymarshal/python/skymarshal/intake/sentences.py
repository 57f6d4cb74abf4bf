"""A report's sentences, and which of them instruct rather than report.

A sentence telling the system what to do ("ignore crew duty limits", "rules are waived today", "skip the legality
checks", "do not escalate") states no fact: it is blanked before anything is read, so no word of it — a cause, a
date, an airport — can change the reading. Blanking keeps every offset, so spans still point into the report.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

INSTRUCTION = re.compile(
    r"\b(?:ignore|ignoring|disregard\w*|forget|override|overrule|bypass\w*|waive\w*|pretend|skip|skipping"
    r"|(?:do not|don't|dont|no need to|never)\s+(?:apply|escalate|check|follow|tell|bother|worry|wait|consider|use"
    r"|flag|raise|page|call|involve|involving)|you (?:must|should|may|can)|must be approved|auto-?approve\w*"
    r"|approve (?:it|this|the)|treat (?:it|this) as|mark (?:it|this) as|act as|as an ai|system prompt"
    r"|new instructions?|instructions? above|previous instructions?)\b",
    re.I,
)
# Sentence ends: . ! ? ; and line breaks, and the " / " an MVT copied onto one line uses; a full stop inside a
# date ("20.01.2027"), a time ("14.30") or a number is not one.
_END = re.compile(r"(?<!\d)[.!?;]+(?=\s|$)|[!?;]+|\n+|\s/\s|(?<=\d)\.(?=\s|$)")


def spans(text: str) -> Iterator[tuple[int, int]]:
    """The [start, end) of each sentence, its end mark included."""
    at = 0
    for m in _END.finditer(text):
        if m.end() > at:
            yield at, m.end()
            at = m.end()
    if at < len(text):
        yield at, len(text)


def instructs(sentence: str) -> bool:
    return INSTRUCTION.search(sentence) is not None


def blank_instructions(text: str) -> str:
    """The text with every instructing sentence replaced by spaces (offsets kept)."""
    out = list(text)
    for start, end in spans(text):
        if instructs(text[start:end]):
            out[start:end] = " " * (end - start)
    return "".join(out)


def described(text: str) -> str:
    """The report without its instructing sentences, whitespace collapsed (the what-if reads these words)."""
    return " ".join(blank_instructions(text or "").split())
