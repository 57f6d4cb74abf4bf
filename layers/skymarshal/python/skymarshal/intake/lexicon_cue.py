"""A cue of the cause lexicon: an AHM 730 code, the fact it states, its weight, and the word groups that must all
occur in one sentence (lexicon.py explains the weights)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Cue:
    code: int
    fact: str  # the stated fact's name (the what-if overlay reads aircraft_defect, crew_unavailable, ...)
    weight: float
    groups: tuple[str, ...]  # regex alternations over the normalised, lower-case sentence; all must occur


def cue(code: int, fact: str, weight: float, *groups: str) -> Cue:
    return Cue(code, fact, weight, groups)
