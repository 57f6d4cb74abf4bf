"""The console's landing view is the operation board (headless Chromium, the API faked with boards the library
assembled): the day's figures, the flights drawn with the Gantt's bars, the AOG block, the open disruption linking
to its decision — and the board drawn again when that run's live stream ends, with no reload."""

from __future__ import annotations

import pytest
from board_rows import board, run
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from row_builders import aircraft_day, flight, utc, work_order

from skymarshal.models.disruption import Disruption, Scope

pytestmark = pytest.mark.enable_socket
RUN = "ey123-mech"


def _boards():
    ey123 = flight("EY123", dep=utc(2027, 1, 20, 10), estimated_departure=utc(2027, 1, 20, 11))
    other = flight("EY7", dep=utc(2027, 1, 20, 15), reg="A6-BLB", status="CANCELLED")
    grounded = [aircraft_day("A6-BLQ", status="AOG")]
    orders = {"A6-BLQ": [work_order("WO-7", "A6-BLQ", opened=utc(2027, 1, 20, 8))]}
    mech = Disruption.of_code(41, scope=Scope(kind="flight", flight_numbers=["EY123"]))
    waiting = board([ey123, other], [run(RUN, disruption=mech, flight_id=ey123.flight_id)], grounded, orders)
    moved = ey123.model_copy(update={"aircraft_registration": "A6-BLT", "estimated_departure": None})
    executed = run(RUN, "executed", mech, ey123.flight_id, swaps={ey123.flight_id: "A6-BLA"})
    after = board([moved, other], [executed], grounded, orders)
    return waiting.model_dump(mode="json"), after.model_dump(mode="json")


def test_the_landing_view_is_the_board_and_it_follows_the_live_stream(console, fake_api):  # noqa: F811
    waiting, after = _boards()
    fake_api.answer("GET", "/api/operations", waiting)
    sign_in(console, "Observer")
    chart = console.get_by_test_id("board-svg")
    chart.wait_for()
    # the one flight flown (EY7 is cancelled) left an hour late
    assert console.get_by_test_id("board-d15").inner_text().startswith("0.0 %")
    assert console.get_by_test_id("board-waiting").inner_text().startswith("1")
    bar = console.locator('.bar.plan[data-flight="EY123"]')
    assert bar.get_attribute("data-change") == "delayed" and "+60′" in bar.inner_html()
    hover = bar.locator("title").text_content() or ""  # UTC and each end's local time (Abu Dhabi is UTC+4)
    assert "scheduled 01-20 10:00Z (14:00 AUH)" in hover and "now 01-20 11:00Z (15:00 AUH)" in hover, hover
    assert console.locator('.bar.original[data-flight="EY123"]').count() == 1  # the schedule, faint above
    assert console.locator('.bar.plan[data-flight="EY7"]').get_attribute("data-change") == "cancelled"
    assert console.locator('[data-row="A6-BLQ"] .block.aog').count() == 2  # the day's status and the work order
    flag = console.locator(f'.board-marker[data-run="{RUN}"]')
    assert flag.get_attribute("href") == f"#{RUN}"
    assert console.get_by_test_id("board-disruptions").locator(f'a[data-run="{RUN}"]').count() == 1

    fake_api.answer("GET", "/api/operations", after)
    fake_api.push("operations", "done", {"run": RUN, "status": "SUCCEEDED"})  # the board's one stream
    console.locator('[data-row="A6-BLT"] .bar.plan[data-flight="EY123"][data-change="swapped_in"]').wait_for()
    assert console.locator(f'.board-marker[data-run="{RUN}"]').count() == 0
    assert console.get_by_test_id("board-waiting").inner_text().startswith("0")
    assert console.evaluate("performance.getEntriesByType('navigation').length") == 1  # no reload
