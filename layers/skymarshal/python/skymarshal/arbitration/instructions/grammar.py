"""A duty manager's instruction ("alternatives: no tail swap", "at most two hours late", "keep A6-BLT for EY19")
as typed constraints the arbitrator applies to the plans: hard filters that can only remove plans, and
preferences that only reorder the plans that remain.

An instruction can narrow the plan set, never widen it: a plan the rules engine refused stays refused whatever
the words, and an instruction that asks to relax a binding safety constraint ("ignore the FDP limit", "skip the
inspection") is refused before anything changes, naming the constraint and its clause. Forms the grammar does
not know are reported as not understood, never guessed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...models.history import ActionKind
from ..models import (
    InstructionConstraint,
    InstructionRefused,
    InstructionRemoval,
    RankedScenario,
    ReadInstruction,
    ValidatedScenario,
)

# The words a duty manager uses for each kind of plan (plural and hyphenated forms are matched by the patterns).
KIND_WORDS: tuple[tuple[ActionKind, str], ...] = (
    ("rescue_aircraft", r"rescue(?: aircraft)?|ferr(?:y|ies)"),
    ("crew_swap", r"crew[- ]swaps?|crew changes?|reserves?|standby crews?|call[- ]outs?"),
    ("tail_swap", r"(?:tail|aircraft)[- ]?swaps?|swaps?|tail changes?|aircraft changes?"),
    ("cancel", r"cancel(?:l?ations?|l?ing)?|cancels?"),
    ("divert", r"diver(?:sions?|ts?|ting)"),
    ("delay", r"delays?"),
)
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "half an": 0.5, "an": 1, "a": 1}
_NUMBER = rf"(\d+(?:\.\d+)?|{'|'.join(NUMBER_WORDS)})"
_UNIT = r"(minutes?|mins?|min|m|hours?|hrs?|h)"
_REGISTRATION = r"([A-Z0-9]{1,2}-[A-Z0-9]{3,5})"
_FLIGHT = r"([A-Z0-9]{2}\s?\d{1,4}[A-Z]?)"

# Binding safety constraints an instruction may not relax: (words, the constraint, its clause).
SAFETY_CONSTRAINTS: tuple[tuple[str, str, str], ...] = (
    (
        r"fdp|flight duty(?: period)?|duty (?:time|limits?|hours)|flight time limits?|ftl",
        "crew flight duty period limit",
        "EASA ORO.FTL.205 / 14 CFR 117.11-13",
    ),
    (r"(?:crew )?rest(?!\s+of)(?: periods?| requirements?)?", "crew minimum rest", "EASA ORO.FTL.235 / 14 CFR 117.25"),
    (
        r"maintenance|mel|airworthiness|inspections?|(?:the )?checks?|release to service|defects?",
        "airworthiness (defect rectified or deferred under the MEL; release to service)",
        "Part-M M.A.403; Part-145.A.50",
    ),
    (r"curfews?|night (?:ban|restrictions?)", "airport curfew", "the airport's noise/night restriction"),
    (r"(?:weather )?minima|weather limits?", "weather minima", "CAT.OP.MPA.110 aerodrome operating minima"),
    (r"(?:crew )?legality|crew limits?|qualifications?", "crew legality", "EASA ORO.FTL / ORO.FC"),
)
_RELAX = r"ignore|waive|skip|bypass|override|overrule|disregard|relax|extend|exceed|break|suspend|forget(?: about)?"


def _minutes(number: str, unit: str) -> int:
    value = NUMBER_WORDS.get(number.lower()) or float(number)
    return round(value * 60) if unit.lower().startswith("h") else round(value)


def refusal(text: str) -> InstructionRefused | None:
    """The first binding safety constraint the instruction asks to relax, if any ("ignore the FDP limit")."""
    for words, constraint, clause in SAFETY_CONSTRAINTS:
        relax = re.search(
            rf"\b(?:{_RELAX}|without|never mind|don'?t (?:worry about|apply|check))[\w\s'’-]{{0,20}}?\b(?:{words})\b",
            text,
            re.I,
        )
        beyond = re.search(rf"\b(?:beyond|past|over|outside)\s+(?:the\s+)?(?:{words})\b", text, re.I)
        if found := relax or beyond:
            return InstructionRefused(constraint=constraint, clause=clause, words=found.group(0))
    return None


def _forbidden_kinds(clause: str) -> Iterable[InstructionConstraint]:
    for kind, words in KIND_WORDS:
        m = re.search(rf"\b(?:no|avoid|without|not? (?:a |any )?|don'?t|do not|never)\s*(?:{words})\b", clause, re.I)
        if m:
            yield InstructionConstraint(kind="forbid_kind", action=kind, words=m.group(0))
            clause = clause.replace(m.group(0), " ")


def _max_delay(clause: str) -> InstructionConstraint | None:
    m = re.search(
        rf"\b(?:at most|no more than|not more than|under|less than|within|max(?:imum)?(?: delay)?(?: of)?|up to|"
        rf"limit(?: the delay)? to)\s+{_NUMBER}\s*{_UNIT}\b(?:\s+(?:late|delay(?:ed)?))?",
        clause,
        re.I,
    )
    if m:
        return InstructionConstraint(kind="max_delay", minutes=_minutes(m.group(1), m.group(2)), words=m.group(0))
    return None


def _tails(clause: str) -> Iterable[InstructionConstraint]:
    for m in re.finditer(rf"\b(?:keep|save|hold|reserve)\s+{_REGISTRATION}\s+for\s+{_FLIGHT}", clause, re.I):
        yield InstructionConstraint(
            kind="reserve_tail",
            registration=m.group(1).upper(),
            flight_number=m.group(2).upper().replace(" ", ""),
            words=m.group(0),
        )
    pattern = rf"\b(?:not|avoid|don'?t use|do not use|never use|no|exclude|without)\s+(?:the\s+)?{_REGISTRATION}"
    for m in re.finditer(pattern, clause, re.I):
        yield InstructionConstraint(kind="exclude_tail", registration=m.group(1).upper(), words=m.group(0))


def _preferences(clause: str) -> Iterable[InstructionConstraint]:
    connections = (
        r"(?i:\bprotect(?:ing)?\s+(?:the\s+)?)(?:([A-Z]{3})\s+)?(?i:connections?)(?:\s+(?i:at|in|via)\s+([A-Z]{3}))?"
    )
    if m := re.search(connections, clause):
        yield InstructionConstraint(kind="protect_connections", airport=m.group(1) or m.group(2), words=m.group(0))
    if m := re.search(r"(?i:\bprefer\s+(?:a\s+|the\s+)?(?:diversion\s+to\s+|station\s+)?)([A-Z]{3})\b", clause):
        yield InstructionConstraint(kind="prefer_station", airport=m.group(1), words=m.group(0))


def read_instruction(text: str) -> ReadInstruction:
    """The instruction's constraints by the grammar, clause by clause; a refusal stops everything."""
    if (refused := refusal(text)) is not None:
        return ReadInstruction(text=text, refused=refused)
    constraints: list[InstructionConstraint] = []
    not_understood: list[str] = []
    for clause in (c.strip() for c in re.split(r"[;,.]|\band\b|\bbut\b", text) if c.strip()):
        found = [*_tails(clause), *_forbidden_kinds(clause), *_preferences(clause)]
        if (delay := _max_delay(clause)) is not None:
            found.append(delay)
        if found:
            constraints += [c for c in found if c not in constraints]
        elif re.search(r"\w{3,}", clause):
            not_understood.append(clause)
    return ReadInstruction(text=text, constraints=constraints, not_understood=not_understood)


def instruction_problem(text: str | None) -> str | None:
    """One line when an instruction must be refused before anything changes (a decision's validation)."""
    refused = refusal(text) if text else None
    return refused.message if refused is not None else None


def apply_constraints(
    read: ReadInstruction | None, valid: list[ValidatedScenario], flight_number: str
) -> tuple[list[ValidatedScenario], list[InstructionRemoval]]:
    """The valid plans the instruction's hard constraints keep, and each one removed with the constraint that did.

    Only valid plans are filtered: a refused plan stays refused for its own reason (an instruction never
    makes a plan legal), and a refused instruction applies nothing."""
    if read is None or read.refused is not None:
        return valid, []
    kept, removed = [], []
    for v in valid:
        hit = next((c for c in read.constraints if c.hard and c.removes(v.scenario, flight_number)), None)
        if hit is None:
            kept.append(v)
        else:
            removed.append(
                InstructionRemoval(
                    scenario_id=v.scenario.scenario_id, title=v.scenario.title, constraint=hit.describe()
                )
            )
    return kept, removed


def apply_preferences(read: ReadInstruction | None, ranked: list[RankedScenario]) -> list[RankedScenario]:
    """The ranked plans reordered by the instruction's preferences, each a stable sort (the rules' order breaks
    ties): protecting connections puts the earliest arrival first (a connection is kept by arriving in time;
    the plans carry no per-airport connection count, so the airport named is recorded, not weighed); preferring
    a station puts the plans that end there first."""
    if read is None or read.refused is not None:
        return ranked
    order = list(ranked)
    for c in read.constraints:
        if c.kind == "protect_connections":
            order.sort(key=lambda r: r.scenario.arrival_delay_minutes)
        elif c.kind == "prefer_station":
            order.sort(key=lambda r: r.scenario.arrival_airport != c.airport)
    if [r.scenario.scenario_id for r in order] == [r.scenario.scenario_id for r in ranked]:
        return ranked
    return [r.model_copy(update={"rank": i + 1}) for i, r in enumerate(order)]
