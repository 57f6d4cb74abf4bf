"""MEL rectification intervals and aircraft airworthiness."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rules_helpers import utc

from skymarshal.models.operational import MelItem, WorkOrder
from skymarshal.rules.mel import aircraft_airworthiness, grounded_at, mel_item_finding, rectification_deadline


def item(category: str, discovered=date(2027, 3, 1), **kw) -> MelItem:
    return MelItem(reference="21-51-01", category=category, discovered_on=discovered, **kw)


@pytest.mark.parametrize(
    ("category", "expires"), [("B", utc(2027, 3, 5)), ("C", utc(2027, 3, 12)), ("D", utc(2027, 6, 30))]
)
def test_intervals_exclude_the_day_of_discovery(category, expires):
    assert rectification_deadline(item(category)) == expires


def test_category_a_uses_the_item_interval():
    assert rectification_deadline(item("A", interval_days=1)) == utc(2027, 3, 3)
    with pytest.raises(ValueError):
        item("A")


def test_deadline_in_local_time():
    assert rectification_deadline(item("B"), tz="Asia/Dubai") == utc(2027, 3, 4, 20)


def test_interval_edges():
    b = item("B", restrictions=["APU_INOP_GROUND_POWER"])
    last_minute = mel_item_finding(b, utc(2027, 3, 4, 23, 59), "A6-EIA")
    assert last_minute.status == "at_risk" and last_minute.margin_minutes == 1
    assert mel_item_finding(b, utc(2027, 3, 4, 12), "A6-EIA").status == "legal"
    expired = mel_item_finding(b, utc(2027, 3, 5), "A6-EIA")
    assert expired.status == "illegal" and expired.binding
    assert expired.clause == "MMEL/MEL rectification interval, category B"
    assert expired.details["restrictions"] == ["APU_INOP_GROUND_POWER"]


def order(wid: str, **kw) -> WorkOrder:
    values = dict(
        work_order_id=wid,
        aircraft_registration="A6-EIA",
        opened_at=utc(2027, 3, 1, 8),
        kind="DEFECT",
        status="OPEN",
        ata_chapter="21",
        description="pack 1 inoperative",
        station="AUH",
    )
    values.update(kw)
    return WorkOrder(**values)


def test_airworthiness():
    deferred = order("W1", kind="MEL_DEFERRAL", status="DEFERRED", mel=item("C", restrictions=["ALT_LIMIT_FL250"]))
    ok = aircraft_airworthiness([deferred], utc(2027, 3, 2))
    assert ok.airworthy and ok.restrictions == ("ALT_LIMIT_FL250",)
    late = aircraft_airworthiness([deferred], utc(2027, 3, 12))
    assert not late.airworthy and late.restrictions == ()
    aog = aircraft_airworthiness([deferred, order("W2", aog=True)], utc(2027, 3, 2))
    assert not aog.airworthy and any(f.rule == "mnt.aog" and f.binding for f in aog.findings)
    closed = order("W3", aog=True, status="CLOSED", closed_at=utc(2027, 3, 1, 20))
    assert aircraft_airworthiness([closed], utc(2027, 3, 2)).airworthy
    assert not aircraft_airworthiness(
        [closed.model_copy(update={"status": "OPEN", "closed_at": None})], utc(2027, 3, 2)
    ).airworthy
    future = order("W4", aog=True, opened_at=utc(2027, 3, 5))
    assert aircraft_airworthiness([future], utc(2027, 3, 2)).airworthy
    loose = aircraft_airworthiness([order("W5")], utc(2027, 3, 2))
    assert loose.airworthy and loose.findings[0].status == "at_risk"
    other = aircraft_airworthiness(
        [order("W6", aog=True, aircraft_registration="A6-EIB")], utc(2027, 3, 2), registration="A6-EIA"
    )
    assert other.airworthy and other.findings == ()


@given(
    orders=st.lists(
        st.tuples(
            st.sampled_from(["A6-EIA", "A6-EIB"]),
            st.integers(0, 20 * 24),  # opened, hours after 1 March
            st.one_of(st.none(), st.integers(1, 20 * 24)),  # closed that many hours after opening
            st.booleans(),  # AOG
            st.one_of(st.none(), st.sampled_from(["B", "C"])),  # a deferred MEL item's category
        ),
        max_size=5,
    ),
    hours=st.integers(0, 25 * 24),
    registration=st.sampled_from([None, "A6-EIA"]),
)
def test_grounded_at_is_exactly_not_airworthy(orders, hours, registration):
    """The rotation's quick question is the airworthiness ruling's own answer, whatever the orders."""
    start = utc(2027, 3, 1)
    work = [
        WorkOrder(
            work_order_id=f"WO-{i}",
            aircraft_registration=reg,
            opened_at=start + timedelta(hours=opened),
            closed_at=None if closed is None else start + timedelta(hours=opened + closed),
            kind="MEL_DEFERRAL" if mel else "DEFECT",
            status="CLOSED" if closed is not None and i % 2 else ("DEFERRED" if mel else "OPEN"),
            ata_chapter="29",
            description="test",
            station="AUH",
            aog=aog,
            mel=item(mel, discovered=(start + timedelta(hours=opened)).date()) if mel else None,
        )
        for i, (reg, opened, closed, aog, mel) in enumerate(orders)
    ]
    at = start + timedelta(hours=hours)
    ruling = aircraft_airworthiness(work, at, registration=registration)
    assert grounded_at(work, at, registration=registration) is (not ruling.airworthy)
