"""A reading judged against the report's truth, and the tallies the bench prints: per family, per style, per
scope, and the confusion between families."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from .truth import FAMILIES, SCOPE_LABELS, STYLES, Read, Report, Truth, Verdict

GOAL_UNDERSTOOD = 0.97
SOUND_OUTCOMES = ("understood", "refused_wrongly", "wrong_family", "wrong_scope", "wrong_flights", "crashed")


def scope_right(truth: Truth, read: Read) -> bool:
    if read.scope_kind != truth.scope_kind:
        return False
    if truth.scope == "tail" and read.registration != truth.registration:
        return False
    if truth.scope in ("airport", "airspace"):
        if read.airport != truth.airport:
            return False
        if (read.window_start, read.window_end) != (truth.window_start, truth.window_end):
            return False
    return True


def flights_right(truth: Truth, read: Read) -> bool:
    expected, got = set(truth.flights), set(read.flights)
    return expected == got if truth.flights_exact else expected <= got


def judge(report: Report, read: Read) -> Verdict:
    truth = report.truth
    if read.crashed:
        outcome = "crashed"
    elif truth.refuse is not None:
        outcome = "refused" if read.refused else "contradiction_accepted"
    elif read.refused:
        outcome = "refused_wrongly"
    elif read.family != truth.family:
        outcome = "wrong_family"
    elif not scope_right(truth, read):
        outcome = "wrong_scope"
    elif not flights_right(truth, read):
        outcome = "wrong_flights"
    else:
        outcome = "understood"
    code_right = None if truth.code is None or read.refused or read.code is None else read.code == truth.code
    return Verdict(
        report_id=report.report_id,
        style=report.style,
        family=truth.family,
        scope=truth.scope,
        outcome=outcome,
        read_family=read.family,
        code_right=code_right,
        asked=bool(read.unsure),
        detail=read.message or "",
    )


def asking(verdicts: Iterable[Verdict]) -> Counter[str]:
    """How the reading's uncertainty tracks its mistakes, over sound reports read: how many it asked about, and of
    those read wrong (family, scope, flights or code) how many it asked about."""
    counts: Counter[str] = Counter()
    for v in verdicts:
        if v.outcome not in ("understood", "wrong_family", "wrong_scope", "wrong_flights"):
            continue
        wrong = v.outcome != "understood" or v.code_right is False
        counts["read"] += 1
        counts["asked"] += v.asked
        counts["wrong"] += wrong
        counts["wrong_asked"] += wrong and v.asked
        counts["right_asked"] += v.asked and not wrong
    return counts


def tally(verdicts: Iterable[Verdict], key: str) -> dict[str, Counter[str]]:
    """Outcome counts per value of `key` (family, style or scope), sound reports and contradictions apart."""
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        row = rows[getattr(v, key)]
        row[v.outcome] += 1
        row["sound" if v.outcome in SOUND_OUTCOMES else "contradictions"] += 1
        if v.code_right is not None:
            row["coded"] += 1
            row["code_right"] += v.code_right
    order = {"family": FAMILIES, "style": STYLES, "scope": SCOPE_LABELS}[key]
    return {name: rows[name] for name in order if name in rows}


def confusion(verdicts: Iterable[Verdict]) -> dict[str, Counter[str]]:
    """Truth family → the family read, over sound reports that were read (not refused)."""
    table: dict[str, Counter[str]] = defaultdict(Counter)
    for v in verdicts:
        if v.outcome in ("understood", "wrong_family", "wrong_scope", "wrong_flights"):
            table[v.family][v.read_family or "-"] += 1
    return {family: table[family] for family in FAMILIES if family in table}


def totals(verdicts: list[Verdict]) -> Counter[str]:
    total: Counter[str] = Counter()
    for row in tally(verdicts, "style").values():
        total.update(row)
    return total


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f} %" if whole else "    - "
