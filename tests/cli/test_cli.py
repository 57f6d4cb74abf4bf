"""The command line: one-line errors with exit 2 for bad arguments, exit 1 for failures, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def run(*args: str, env=None):
    return subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", *args], capture_output=True, text=True, timeout=300, env=env
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (("data", "generate", "--out", "x", "--start", "20/01/2027"), "invalid date '20/01/2027'"),
        (("data", "generate"), "--out"),
        (("local", "launch"), "invalid choice: 'launch'"),
        (("nonsense",), "invalid choice: 'nonsense'"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(args, needle):
    result = run(*args)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and needle in result.stderr


def test_an_invalid_window_is_refused_with_one_line(tmp_path):
    result = run("data", "generate", "--out", str(tmp_path), "--days", "3")
    assert result.returncode == 1
    assert result.stderr.strip() == "skymarshal: invalid days: Input should be greater than or equal to 7"
    result = run("data", "generate", "--out", str(tmp_path), "--load-factor", "1.5")
    assert (
        result.returncode == 1
        and result.stderr.strip() == "skymarshal: invalid load_factor: Input should be less than or equal to 1"
    )
    assert not list(tmp_path.iterdir())


def test_import_without_a_running_local_aws_says_what_to_do(tmp_path):
    result = run("data", "import", str(tmp_path), env={"SKYMARSHAL_HOME": str(tmp_path), "PATH": ""})
    assert result.returncode == 1
    assert "skymarshal local start" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.integration  # generates a whole (lightly loaded) airline in a subprocess
def test_generate_writes_one_jsonl_file_per_table(tmp_path):
    result = run("data", "generate", "--out", str(tmp_path), "--seed", "3", "--load-factor", "0.05")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["rows"]["flights"] > 1000
    assert (tmp_path / "flights.jsonl").exists() and (tmp_path / "CrewRoster.jsonl").exists()


@pytest.mark.parametrize("value", ["7", "0", "nan", "many"])
def test_local_start_refuses_a_load_factor_out_of_range_on_one_line_and_starts_nothing(tmp_path, value):
    result = run("local", "start", "--load-factor", value, env={"SKYMARSHAL_HOME": str(tmp_path)})
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .endswith(f"invalid load factor {value!r}: a number from 0.05 to 1, e.g. 0.78")
    )
    assert not list(tmp_path.iterdir())
