"""The what-if overlay applied as DynamoDB would answer: patches by key, added rows by key condition and index
order, a stored row of the same key replaced. Pure: no AWS."""

from __future__ import annotations

from decimal import Decimal

from boto3.dynamodb.conditions import Key
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.data import schema as s
from skymarshal.data.overlay import Overlay, RowAddition, RowPatch

ROW = {"crew_id": "C1", "status": "ACTIVE", "rank": "CPT"}


def test_a_patch_changes_the_row_it_keys_and_no_other():
    overlay = Overlay(
        patches=[RowPatch(table=s.CREW_MEMBERS, key={"crew_id": "C1"}, fields={"status": "SICK"}, fact="x")]
    )
    assert overlay.got(s.CREW_MEMBERS, {"crew_id": "C1"}, ROW)["status"] == "SICK"
    assert overlay.got(s.CREW_MEMBERS, {"crew_id": "C2"}, {**ROW, "crew_id": "C2"})["status"] == "ACTIVE"
    assert overlay.got(s.CREW_MEMBERS, {"crew_id": "C3"}, None) is None
    got = overlay.batch_got(s.CREW_MEMBERS, [{"crew_id": "C1"}, {"crew_id": "C2"}], [ROW, {**ROW, "crew_id": "C2"}])
    assert [r["status"] for r in got] == ["SICK", "ACTIVE"]


def test_an_added_row_answers_its_key_and_the_queries_that_select_it():
    order = {"work_order_id": "W9", "aircraft_registration": "A6-BLQ", "opened_at": "2027-01-20T17:00:00Z", "aog": True}
    overlay = Overlay(additions=[RowAddition(table=s.MAINTENANCE_WORK_ORDERS, item=order, fact="x")])
    assert overlay.got(s.MAINTENANCE_WORK_ORDERS, {"work_order_id": "W9"}, None)["aog"] is True
    stored = [{**order, "work_order_id": "W1", "opened_at": "2027-01-19T00:00:00Z"}]
    index = s.AIRCRAFT_REGISTRATION_INDEX
    mine = overlay.queried(s.MAINTENANCE_WORK_ORDERS, stored, Key("aircraft_registration").eq("A6-BLQ"), index, True)
    assert [r["work_order_id"] for r in mine] == ["W1", "W9"]  # in the index's sort order
    backwards = overlay.queried(
        s.MAINTENANCE_WORK_ORDERS, stored, Key("aircraft_registration").eq("A6-BLQ"), index, False
    )
    assert [r["work_order_id"] for r in backwards] == ["W9", "W1"]
    other = overlay.queried(s.MAINTENANCE_WORK_ORDERS, [], Key("aircraft_registration").eq("A6-BLT"), index, True)
    assert other == []


def test_an_added_row_stands_in_for_a_stored_row_of_the_same_key():
    obs = {"airport": "LHR", "forecast_time": "2027-01-22T06:00:00Z", "visibility_m": 150}
    overlay = Overlay(additions=[RowAddition(table=s.WEATHER, item=obs, fact="weather")])
    stored = [{**obs, "visibility_m": Decimal(9999)}, {**obs, "forecast_time": "2027-01-22T07:00:00Z"}]
    cond = Key("airport").eq("LHR") & Key("forecast_time").between("2027-01-22T05:00:00Z", "2027-01-22T08:00:00Z")
    rows = overlay.queried(s.WEATHER, stored, cond, None, True)
    assert [r["visibility_m"] for r in rows] == [Decimal(150), Decimal(150)] and len(rows) == 2


@given(
    minutes=st.lists(st.integers(0, 1439), min_size=1, max_size=12, unique=True),
    low=st.integers(0, 1439),
    span=st.integers(0, 1439),
)
def test_a_between_condition_selects_exactly_the_added_rows_inside_it(minutes, low, span):
    def at(m: int) -> str:
        return f"2027-01-22T{m // 60:02d}:{m % 60:02d}:00Z"

    additions = [
        RowAddition(table=s.WEATHER, item={"airport": "AUH", "forecast_time": at(m)}, fact="w") for m in minutes
    ]
    cond = Key("airport").eq("AUH") & Key("forecast_time").between(at(low), at(min(1439, low + span)))
    rows = Overlay(additions=additions).queried(s.WEATHER, [], cond, None, True)
    assert [r["forecast_time"] for r in rows] == sorted(at(m) for m in minutes if low <= m <= min(1439, low + span))
