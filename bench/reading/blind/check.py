"""Check a blind corpus against the format (FORMAT.md) without running the reader:
`python -m bench.reading.blind.check FILE...` prints one line per problem and a summary per file."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

from .load import load


def main(argv: list[str] | None = None) -> int:
    paths = [Path(p) for p in (sys.argv[1:] if argv is None else argv)]
    bad = 0
    for path in paths:
        corpus = load(path)
        for problem in corpus.problems:
            print(problem)
        refuse = sum(r.truth.refuse is not None for r in corpus.reports)
        families = Counter(r.truth.family for r in corpus.reports)
        print(
            f"{path.name}: {len(corpus.reports)} reports ({refuse} contradictions), {len(corpus.problems)} problems;"
            f" families {dict(sorted(families.items()))}"
        )
        bad += len(corpus.problems)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
