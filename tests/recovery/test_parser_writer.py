"""Parser and writer: instance fields as read, solution files round trip, bad input named on one line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.recovery.parser import InstanceError, clock, read_instance, read_solution
from skymarshal.recovery.writer import format_clock, write_solution

from .roadef import ROADEF, needs_roadef
from .tiny import planned_solution, tiny_instance, write_tiny


def test_tiny_instance_fields(tmp_path):
    instance = tiny_instance(tmp_path)
    assert instance.config.window_start == 8 * 60 and instance.config.window_end == 1440 + 4 * 60
    assert instance.config.delay_per_minute["BC"] == 0.6 and instance.config.downgrade["BED"] == 50.0
    assert instance.flights[103].duration == 90 and instance.routes[("AAA", "CCC")].haul == "C"
    assert instance.aircraft["P2"].seats == {"F": 0, "B": 10, "E": 50} and instance.aircraft["P2"].config == "0/10/50"
    assert instance.imposed_delays == {(102, 0): 30}
    assert instance.airports["AAA"].daily[0].end == 1440  # 00:00 as an end is midnight
    assert [(p.airport, p.count) for p in instance.positions] == [("AAA", 1), ("BBB", 1)]


def test_solution_round_trip(tmp_path):
    instance = tiny_instance(tmp_path / "inst")
    solution = planned_solution(instance)
    write_solution(instance, solution, tmp_path / "out")
    assert read_solution(tmp_path / "inst", tmp_path / "out") == solution
    assert (tmp_path / "out" / "sol_rotations.csv").read_text().splitlines()[
        1
    ] == "102 BBB AAA 11:30 12:30 0 01/01/09 P1"


@given(st.integers(min_value=0, max_value=3 * 1440 - 1), st.integers(min_value=0, max_value=2))
def test_clock_round_trip(minutes, day):
    absolute = day * 1440 + minutes
    assert day * 1440 + clock(format_clock(absolute, day)) == absolute


def test_missing_file_is_named(tmp_path):
    write_tiny(tmp_path)
    (tmp_path / "dist.csv").unlink()
    with pytest.raises(InstanceError, match=r"dist\.csv is missing"):
        read_instance(tmp_path)


def test_malformed_line_is_reported(tmp_path):
    write_tiny(tmp_path, **{"flights.csv": "101 AAA BBB nine 10:00 0\n#"})
    with pytest.raises(InstanceError, match="malformed instance"):
        read_instance(tmp_path)


def test_not_a_directory(tmp_path):
    with pytest.raises(InstanceError, match="not a directory"):
        read_instance(tmp_path / "nowhere")


@needs_roadef
@pytest.mark.parametrize("name", ["A01", "B01"])
def test_real_instance_round_trip(tmp_path, name):
    instance = read_instance(ROADEF / name)
    assert len(instance.rotations) > 600 and len(instance.itineraries) > 1800
    solution = planned_solution(instance)
    write_solution(instance, solution, tmp_path)
    assert read_solution(ROADEF / name, tmp_path) == solution
