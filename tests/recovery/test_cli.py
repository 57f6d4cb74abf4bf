"""`skymarshal recover` end to end on the tiny instance: files written, costs printed, errors on one line."""

from __future__ import annotations

import json

import pytest

from skymarshal.cli import main
from skymarshal.recovery.checker import check
from skymarshal.recovery.parser import read_instance, read_solution

from .tiny import write_tiny


def test_recover_writes_a_feasible_solution_and_prints_the_costs(tmp_path, capsys):
    folder = write_tiny(tmp_path / "inst")
    assert main(["recover", str(folder), "--out", str(tmp_path / "out"), "--time-limit", "0.5", "--seed", "2"]) == 0
    printed = capsys.readouterr().out
    assert "Passenger Delay Cost" in printed and "Total Cost" in printed and "feasible" in printed
    assert check(read_instance(folder), read_solution(folder, tmp_path / "out")) == []


def test_recover_json(tmp_path, capsys):
    folder = write_tiny(tmp_path / "inst")
    assert main(["recover", str(folder), "--out", str(tmp_path / "out"), "--time-limit", "0.3", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["feasible"] is True and result["violations"] == [] and "total" in result["cost"]


def test_bad_instance_is_one_line(tmp_path, capsys):
    assert main(["recover", str(tmp_path / "missing"), "--out", str(tmp_path / "out"), "--time-limit", "1"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a directory" in err and "Traceback" not in err


def test_bad_time_limit_is_a_usage_error(tmp_path, capsys):
    folder = write_tiny(tmp_path / "inst")
    with pytest.raises(SystemExit) as exit_:
        main(["recover", str(folder), "--out", str(tmp_path / "out"), "--time-limit", "-3"])
    assert exit_.value.code == 2
    assert "must be positive" in capsys.readouterr().err
