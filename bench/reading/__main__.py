"""The reading bench: `python -m bench.reading [--count N] [--seed S] [--examples K] [--json]`.

Generates the synthetic airline in-process (small load factor), composes the seeded report corpus from its
rows (bench/reading/corpus.py), reads every report with the current reader as Validate runs it, and prints
per family, per style and per scope: understood (family + scope + flights right), refused wrongly, wrong
family, wrong scope or flights, contradictions accepted, and the confusion between families, beside the goals.
Figures, not assertions: exit 0 whatever the reader does (1 only when the bench itself cannot run).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

from .judge import GOAL_UNDERSTOOD, asking, confusion, judge, share, tally, totals
from .truth import FAMILIES, Report, Verdict

SHORT = {
    "passengers_baggage": "pax",
    "cargo_mail": "cargo",
    "aircraft_ramp_handling": "ramp",
    "technical": "tech",
    "damage_automation": "damage",
    "flight_operations_crew": "crew",
    "weather": "wx",
    "atfm_airport_government": "atfm",
    "reactionary": "react",
    "miscellaneous": "misc",
}


def table(title: str, rows: dict[str, Counter[str]]) -> list[str]:
    head = f"  {title:24s} {'sound':>5s} {'underst.':>8s} {'refused':>7s} {'family':>6s} {'scope':>5s} {'flights':>7s}"
    lines = [head + f" {'code ok':>7s} {'contra.':>7s} {'accepted':>8s}"]
    for name, row in rows.items():
        sound = row["sound"]
        lines.append(
            f"  {name:24s} {sound:5d} {share(row['understood'], sound):>8s} {row['refused_wrongly']:7d}"
            f" {row['wrong_family']:6d} {row['wrong_scope']:5d} {row['wrong_flights']:7d}"
            f" {share(row['code_right'], row['coded']):>7s} {row['contradictions']:7d} {row['contradiction_accepted']:8d}"
        )
    return lines


def confusion_lines(verdicts: list[Verdict]) -> list[str]:
    matrix = confusion(verdicts)
    lines = ["  truth \\ read " + " ".join(f"{SHORT[f]:>6s}" for f in FAMILIES)]
    for family, row in matrix.items():
        lines.append(f"  {SHORT[family]:13s} " + " ".join(f"{row[f] or '.':>6}" for f in FAMILIES))
    return lines


def examples(reports: list[Report], verdicts: list[Verdict], per_outcome: int) -> list[str]:
    """A few misread reports per outcome and family: what the next reader must learn."""
    shown: Counter[tuple[str, str]] = Counter()
    lines = []
    for report, verdict in zip(reports, verdicts):
        key = (verdict.outcome, verdict.family)
        if verdict.outcome in ("understood", "refused") or shown[key] >= per_outcome:
            continue
        shown[key] += 1
        text = report.text.replace("\n", " / ")
        read = f"read {verdict.read_family}" if verdict.read_family else verdict.detail[:140]
        lines.append(
            f"  [{verdict.outcome} · {verdict.family} · {verdict.scope} · {verdict.style}] {text}\n      → {read}"
        )
    return lines


def figures(title: str, reports: list[Report], verdicts: list[Verdict], per_outcome: int) -> None:
    """The headline, the asking line, the tables by family, style and scope, the confusion and a few misreadings."""
    total = totals(verdicts)
    sound = total["sound"]
    print(f"\n{title}: {len(reports)} reports ({sound} sound, {total['contradictions']} contradictions)")
    print(
        f"  understood {total['understood']}/{sound} = {share(total['understood'], sound).strip()} (goal ≥ {GOAL_UNDERSTOOD:.0%});"
        f" sound reports refused {total['refused_wrongly']} (goal 0);"
        f" contradictions accepted {total['contradiction_accepted']}/{total['contradictions']} (goal 0);"
        f" crashes {total['crashed']}"
    )
    asked = asking(verdicts)
    print(
        f"  asked instead of guessing: {asked['asked']}/{asked['read']} reports read ({share(asked['asked'], asked['read']).strip()});"
        f" of those read wrong (family, scope, flights or code) {asked['wrong_asked']}/{asked['wrong']}"
        f" ({share(asked['wrong_asked'], asked['wrong']).strip()}); asked though right {asked['right_asked']}"
    )
    for name, key in (("family", "family"), ("style", "style"), ("scope", "scope")):
        print()
        print("\n".join(table(f"by {name}", tally(verdicts, key))))
    print("\n  confusion between families (sound reports read, not refused):")
    print("\n".join(confusion_lines(verdicts)))
    if per_outcome:
        print("\n  examples of what went wrong:")
        print("\n".join(examples(reports, verdicts, per_outcome)))


def summary(verdicts: list[Verdict]) -> dict[str, object]:
    """The JSON figures of one corpus (every verdict included)."""
    return {
        "totals": dict(totals(verdicts)),
        "by_family": {k: dict(v) for k, v in tally(verdicts, "family").items()},
        "by_style": {k: dict(v) for k, v in tally(verdicts, "style").items()},
        "by_scope": {k: dict(v) for k, v in tally(verdicts, "scope").items()},
        "confusion": {k: dict(v) for k, v in confusion(verdicts).items()},
        "asking": dict(asking(verdicts)),
        "verdicts": [v.model_dump() for v in verdicts],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=2400, help="reports in the corpus (at least 2,000 to count)")
    parser.add_argument("--seed", type=int, default=730, help="the corpus's seed (the airline keeps its own)")
    parser.add_argument("--load-factor", type=float, default=0.05, help="the airline's passenger volume")
    parser.add_argument(
        "--examples", type=int, default=1, metavar="K", help="misread reports shown per outcome and family"
    )
    parser.add_argument(
        "--moto-airports", action="store_true", help="airport queries through moto too (slow; the same answers)"
    )
    parser.add_argument("--blind", type=Path, default=None, metavar="DIR", help="where corpus-*.jsonl are read from")
    parser.add_argument("--blind-only", action="store_true", help="read only the blind corpora (no generated one)")
    parser.add_argument("--json", action="store_true", help="one JSON object: totals, tallies and every verdict")
    args = parser.parse_args(argv)
    say = (lambda *a: print(*a, file=sys.stderr, flush=True)) if args.json else print

    from skymarshal.data.generator import GeneratorConfig, generate

    from .airline_view import view_of
    from .blind.load import HERE, corpus_paths, load
    from .corpus import build_corpus
    from .reader import validate_reader

    blind_paths = corpus_paths(args.blind or HERE)
    if args.blind is not None and not blind_paths:
        parser.error(f"--blind {args.blind}: no corpus-*.jsonl there")
    started = time.monotonic()
    airline = generate(GeneratorConfig(load_factor=args.load_factor))
    view = view_of(airline)
    reports = [] if args.blind_only else build_corpus(view, seed=args.seed, count=args.count)
    blind = [load(path) for path in blind_paths]
    composed = time.monotonic()
    say(
        f"airline generated and {len(reports)} reports composed in {composed - started:.1f} s (seed {args.seed});"
        f" blind corpora: {', '.join(f'{c.name} ({len(c.reports)})' for c in blind) or 'none'}"
    )
    verdicts: list[Verdict] = []
    blind_verdicts: list[list[Verdict]] = []
    with validate_reader(airline, in_memory_airports=not args.moto_airports) as reader:
        seeded = time.monotonic()
        say(f"emulated account seeded in {seeded - composed:.1f} s; reading …")
        verdicts = [judge(report, reader.read(report)) for report in reports]
        blind_verdicts = [[judge(report, reader.read(report)) for report in c.reports] for c in blind]
    read_s = time.monotonic() - seeded
    total_s = time.monotonic() - started
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    if args.json:
        out = {
            "commit": commit,
            "seed": args.seed,
            **summary(verdicts),
            "blind": {c.name: {"problems": c.problems, **summary(v)} for c, v in zip(blind, blind_verdicts)},
            "seconds": {"total": round(total_s, 1), "reading": round(read_s, 1)},
        }
        json.dump(out, sys.stdout, indent=1, default=lambda d: d.isoformat() if isinstance(d, date) else str(d))
        print()
        return 0
    if reports:
        figures(
            f"reading bench on {commit or '?'}, generated corpus (seed {args.seed})", reports, verdicts, args.examples
        )
    for corpus, read in zip(blind, blind_verdicts):
        figures(f"blind corpus {corpus.name!r} on {commit or '?'}", corpus.reports, read, args.examples)
        if corpus.problems:
            print(f"\n  {len(corpus.problems)} lines of {corpus.name!r} are no report (not read):")
            print("\n".join(f"  {p}" for p in corpus.problems))
    per_report_ms = 1000 * read_s / max(1, len(reports) + sum(len(c.reports) for c in blind))
    print(
        f"\n  {total_s:.0f} s in all: reading {read_s:.0f} s ({per_report_ms:.0f} ms a report), setup {total_s - read_s:.0f} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
