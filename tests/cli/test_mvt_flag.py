"""`skymarshal analyze --mvt FILE`: the movement message is read by the message parser before anything starts; a
malformed message, an unreadable file, or a report beside it is one line and exit 1."""

from __future__ import annotations

import subprocess
import sys

import pytest


def analyze(*args: str):
    return subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", "analyze", *args], capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("message", "needle"),
    [
        ("MVT\nEY123/20.A6BLA.AUH\nDL7X/0030\n", "DL7X: '7X' is not an IATA AHM 730 delay code"),
        ("DIV\nEY123/20.A6BLA.AUH\nDR72\n", "the DIV message names no airport diverted to"),
        ("Flight EY123 on January 20th had a mechanical failure\n", "not a movement message"),
    ],
)
def test_a_malformed_message_is_one_line_and_starts_nothing(tmp_path, message, needle):
    path = tmp_path / "message.txt"
    path.write_text(message)
    result = analyze("--mvt", str(path), "--approve")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"skymarshal: --mvt {path}: ") and needle in lines[0]


def test_a_report_and_a_message_together_or_a_missing_file_are_one_line(tmp_path):
    both = analyze("EY123 on 20 Jan: AOG", "--mvt", str(tmp_path / "x.txt"), "--approve")
    assert both.returncode == 1 and both.stderr.strip() == "skymarshal: give a report in words or --mvt FILE, not both"
    missing = analyze("--mvt", str(tmp_path / "absent.txt"), "--approve")
    assert missing.returncode == 1 and "cannot read it (FileNotFoundError)" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1
    neither = analyze("--approve")
    assert neither.returncode == 1 and "or --mvt FILE" in neither.stderr
