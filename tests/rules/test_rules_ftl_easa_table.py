"""Every cell of ORO.FTL.205(b)(1), from an independent literal copy of REFERENCE.md's table."""

from __future__ import annotations

from datetime import time

import pytest

from skymarshal.rules.ftl_easa import basic_fdp_minutes, max_fdp_minutes

REFERENCE_TABLE = """
| 06:00–13:29 | 13:00 | 12:30 | 12:00 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 |
| 13:30–13:59 | 12:45 | 12:15 | 11:45 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 |
| 14:00–14:29 | 12:30 | 12:00 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 |
| 14:30–14:59 | 12:15 | 11:45 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 | 9:00 |
| 15:00–15:29 | 12:00 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 | 9:00 |
| 15:30–15:59 | 11:45 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 | 9:00 | 9:00 |
| 16:00–16:29 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 | 9:00 | 9:00 |
| 16:30–16:59 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 | 9:00 | 9:00 | 9:00 |
| 17:00–04:59 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 | 9:00 | 9:00 | 9:00 |
| 05:00–05:14 | 12:00 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 | 9:00 |
| 05:15–05:29 | 12:15 | 11:45 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 | 9:00 |
| 05:30–05:44 | 12:30 | 12:00 | 11:30 | 11:00 | 10:30 | 10:00 | 9:30 | 9:00 | 9:00 |
| 05:45–05:59 | 12:45 | 12:15 | 11:45 | 11:15 | 10:45 | 10:15 | 9:45 | 9:15 | 9:00 |
"""
SECTORS = ((1, 2), (3,), (4,), (5,), (6,), (7,), (8,), (9,), (10,))


def _t(text: str) -> time:
    h, m = text.split(":")
    return time(int(h), int(m))


def _minutes(text: str) -> int:
    h, m = text.split(":")
    return int(h) * 60 + int(m)


def _cells():
    for line in REFERENCE_TABLE.strip().splitlines():
        band, *limits = [c.strip() for c in line.strip("|").split("|")]
        first, last = band.split("–")
        assert len(limits) == 9
        for sectors, limit in zip(SECTORS, limits):
            for n in sectors:
                for start in (first, last):
                    yield pytest.param(_t(start), n, _minutes(limit), id=f"{start}-{n}s-{limit}")


CELLS = list(_cells())


def test_reference_copy_is_complete():
    assert len(CELLS) == 13 * 10 * 2  # 13 bands × (1, 2, 3..10 sectors) × (first and last minute of the band)


@pytest.mark.parametrize(("start", "sectors", "expected"), CELLS)
def test_every_cell(start, sectors, expected):
    assert basic_fdp_minutes(start, sectors) == expected
    limit = max_fdp_minutes(start, sectors)
    assert limit.minutes == expected
    assert limit.clause == "ORO.FTL.205(b)(1)"


@pytest.mark.parametrize(
    ("before", "after", "sectors", "expected_before", "expected_after"),
    [
        ("13:29", "13:30", 1, "13:00", "12:45"),
        ("04:59", "05:00", 2, "11:00", "12:00"),
        ("05:14", "05:15", 1, "12:00", "12:15"),
        ("16:59", "17:00", 1, "11:15", "11:00"),
        ("05:59", "06:00", 1, "12:45", "13:00"),
        ("23:59", "00:00", 3, "10:30", "10:30"),
    ],
)
def test_band_edges(before, after, sectors, expected_before, expected_after):
    assert basic_fdp_minutes(_t(before), sectors) == _minutes(expected_before)
    assert basic_fdp_minutes(_t(after), sectors) == _minutes(expected_after)


def test_seconds_do_not_move_the_band():
    assert basic_fdp_minutes(time(13, 29, 59), 1) == _minutes("13:00")


@pytest.mark.parametrize("sectors", [11, 12, 20])
def test_beyond_ten_sectors_is_the_nine_hour_floor(sectors):
    limit = max_fdp_minutes(time(8, 0), sectors)
    assert limit.minutes == 9 * 60
    assert any("beyond the table" in note for note in limit.notes)


def test_zero_sectors_is_an_error():
    with pytest.raises(ValueError):
        basic_fdp_minutes(time(8, 0), 0)
