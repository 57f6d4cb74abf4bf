"""What maintenance tells the OCC while a day is replayed (day/repairs.py): the work order a recovery recorded from a
tail event's report is closed when the stream's repair ends — its re-decisions' too — and nothing else is: not
before the repair ends, not an order of another event's run, never one the airline's own maintenance opened."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from row_builders import work_order

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.data.loader import upsert
from skymarshal.day.repairs import close_repaired
from skymarshal.day.stream import AirlineRef, Stream, StreamEvent, StreamHeader

DAY = date(2027, 1, 20)
AT = datetime(2027, 1, 20, 9, tzinfo=UTC)
TAIL = "A6-BLA"
RUN = "day-t-E001"


@pytest.fixture
def handle(blank_account):
    return DataHandle(naming=blank_account.naming, resource=blank_account.resource())


def _stream() -> Stream:
    event = StreamEvent(
        event_id="E001", at=AT, holds="tail", family="technical", code=41, cause="technical",
        history_type="mechanical", flight_id="EY1-20270120", flight_number="EY1", flight_date=DAY,
        registration=TAIL, start=AT, end=AT + timedelta(hours=5), report="EY1 AOG, brake change",
    )  # fmt: skip
    header = StreamHeader(
        stream_id="t", seed=1, intensity="ordinary", days=[DAY],
        airline=AirlineRef(seed=1, start=DAY - timedelta(days=1), days=3, load_factor=0.1),
    )  # fmt: skip
    return Stream(header=header, events=(event,))


def _orders(blank_account, **runs: str | None) -> None:
    orders = [work_order(wo_id, TAIL, opened=AT, updated_by_execution=run) for wo_id, run in runs.items()]
    upsert(blank_account.resource(), blank_account.naming, s.MAINTENANCE_WORK_ORDERS, orders)


def _status(handle) -> dict[str, tuple[str, datetime | None]]:
    return {o.work_order_id: (o.status, o.closed_at) for o in q.work_orders_for_aircraft(handle, TAIL)}


def test_the_recorded_order_closes_when_the_repair_ends_and_nothing_else_does(handle, blank_account):
    _orders(blank_account, REPORTED=RUN, AGAIN=f"{RUN}--redecide-1", OTHER="day-t-E0010", OWN=None)
    stream, runs = _stream(), {"E001": RUN}
    assert close_repaired(handle, stream, AT + timedelta(hours=4), runs) == []  # not repaired yet
    assert sorted(close_repaired(handle, stream, AT + timedelta(hours=6), runs)) == ["AGAIN", "REPORTED"]
    status = _status(handle)
    end = AT + timedelta(hours=5)
    assert status["REPORTED"] == ("CLOSED", end) and status["AGAIN"] == ("CLOSED", end)
    assert status["OTHER"] == ("OPEN", None) and status["OWN"] == ("OPEN", None)
    assert close_repaired(handle, stream, AT + timedelta(hours=7), runs) == []  # closed once
