"""An execution writes roster rows as dicts (moved, re-keyed, copied): each is written with the index key its model
derives from it — a sector moved past midnight UTC leaves its old day's partition of sector-day-index."""

from __future__ import annotations

from typing import Any, cast

import row_builders

from skymarshal.data import schema as s
from skymarshal.workflow.execution.reader import RowReader

SECTOR = row_builders.sector_item(sector_day="2027-01-20")


def _reader() -> RowReader:
    return RowReader(cast(Any, None), "exec-1", cast(Any, None))  # _change reads nothing


def test_a_sector_moved_past_midnight_is_written_at_its_new_day():
    moved = {**SECTOR, "sector_departure": "2027-01-21T00:40:00Z", "moved_minutes": 130}
    change = _reader()._change(s.CREW_ROSTER, SECTOR, moved)
    assert change.after is not None and change.after["sector_day"] == "2027-01-21"


def test_a_row_that_is_no_longer_a_flown_sector_leaves_the_index():
    positioning = {**SECTOR, "kind": "POSITIONING"}
    change = _reader()._change(s.CREW_ROSTER, SECTOR, positioning)
    assert change.after is not None and "sector_day" not in change.after
