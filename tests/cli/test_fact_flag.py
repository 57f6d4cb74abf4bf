"""`skymarshal analyze ... --fact KEY=VALUE`: repeatable, each value checked and written one way before anything
starts; a bad one is argparse's one line and exit 2."""

from __future__ import annotations

import subprocess
import sys
from datetime import date

import pytest

from skymarshal.cli import build_parser


def test_facts_are_repeatable_and_written_one_way():
    args = build_parser().parse_args(
        ["analyze", "EY123 on 20 Jan: fuel truck broke down", "--fact", "code=036", "--fact", "duration=2h"]
    )
    assert dict(args.facts) == {"code": "36", "duration": "120"}
    assert build_parser().parse_args(["analyze", "EY123 on 20 Jan: AOG"]).facts == []


@pytest.mark.parametrize(
    ("flag", "needle"),
    [
        ("code=7", "code=7: not an IATA AHM 730 delay code"),
        ("captain", "use KEY=VALUE"),
        ("tail=A6-BLA", "tail: not a fact that can be corrected"),
    ],
)
def test_a_bad_fact_is_one_line_and_exit_2(flag, needle):
    result = subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", "analyze", "EY123 on 20 Jan: AOG", "--fact", flag],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and needle in result.stderr


def test_the_operating_day_is_a_date_or_one_line():
    """`--ops-date` (issue 31 item 4): what "today" and "tomorrow" in the report mean; not a date is argparse's line."""
    args = build_parser().parse_args(["analyze", "EY123 today: AOG", "--ops-date", "2027-01-20"])
    assert args.ops_date == date(2027, 1, 20)
    assert build_parser().parse_args(["analyze", "EY123 today: AOG"]).ops_date is None
    with pytest.raises(SystemExit) as bad:
        build_parser().parse_args(["analyze", "EY123 today: AOG", "--ops-date", "20/01/2027"])
    assert bad.value.code == 2
