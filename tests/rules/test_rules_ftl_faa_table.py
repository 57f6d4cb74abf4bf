"""Every cell of 14 CFR 117 Table B and Table A, from an independent literal copy of REFERENCE.md."""

from __future__ import annotations

from datetime import time

import pytest

from skymarshal.rules.ftl_faa import max_fdp_minutes, max_flight_time_minutes

REFERENCE_TABLE_B = """
| 0000–0359 | 9 | 9 | 9 | 9 | 9 | 9 | 9 |
| 0400–0459 | 10 | 10 | 10 | 10 | 9 | 9 | 9 |
| 0500–0559 | 12 | 12 | 12 | 12 | 11.5 | 11 | 10.5 |
| 0600–0659 | 13 | 13 | 12 | 12 | 11.5 | 11 | 10.5 |
| 0700–1159 | 14 | 14 | 13 | 13 | 12.5 | 12 | 11.5 |
| 1200–1259 | 13 | 13 | 13 | 13 | 12.5 | 12 | 11.5 |
| 1300–1659 | 12 | 12 | 12 | 12 | 11.5 | 11 | 10.5 |
| 1700–2159 | 12 | 12 | 11 | 11 | 10 | 9 | 9 |
| 2200–2259 | 11 | 11 | 10 | 10 | 9 | 9 | 9 |
| 2300–2359 | 10 | 10 | 10 | 9 | 9 | 9 | 9 |
"""


def _t(hhmm: str) -> time:
    return time(int(hhmm[:2]), int(hhmm[2:]))


def _cells():
    for line in REFERENCE_TABLE_B.strip().splitlines():
        band, *hours = [c.strip() for c in line.strip("|").split("|")]
        first, last = band.split("–")
        assert len(hours) == 7
        for column, value in enumerate(hours):
            segments = (column + 1,) if column < 6 else (7, 8, 12)
            for n in segments:
                for start in (first, last):
                    yield pytest.param(_t(start), n, round(float(value) * 60), id=f"{start}-{n}seg-{value}h")


CELLS = list(_cells())


def test_reference_copy_is_complete():
    assert len(CELLS) == 10 * (6 + 3) * 2


@pytest.mark.parametrize(("start", "segments", "expected"), CELLS)
def test_every_cell_of_table_b(start, segments, expected):
    limit = max_fdp_minutes(start, segments)
    assert limit.minutes == expected
    assert limit.clause == "14 CFR 117.13(a) Table B"


@pytest.mark.parametrize(("start", "segments", "expected"), CELLS)
def test_not_acclimated_is_thirty_minutes_less(start, segments, expected):
    limit = max_fdp_minutes(start, segments, acclimated=False)
    assert limit.minutes == expected - 30
    assert "117.13(b)" in limit.clause


@pytest.mark.parametrize(
    ("start", "hours"), [("0000", 8), ("0459", 8), ("0500", 9), ("1959", 9), ("2000", 8), ("2359", 8)]
)
def test_table_a(start, hours):
    assert max_flight_time_minutes(_t(start)) == hours * 60
