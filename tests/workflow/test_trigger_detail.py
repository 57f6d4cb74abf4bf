"""A report on the bus: the run is named after the producer's own id when it gives one (so its retry starts
nothing new, as a redelivery does), else after the event id; the operating day travels with it."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.workflow.deployment import DETAIL_TYPE, SOURCE
from skymarshal.workflow.runs.trigger import InvalidEvent, disruption_id_for, parse_event, request_for


def _event(detail: dict, event_id: str = "0f1e2d3c") -> dict:
    return {
        "version": "0",
        "id": event_id,
        "source": SOURCE,
        "detail-type": DETAIL_TYPE,
        "account": "123456789012",
        "region": "eu-west-1",
        "time": "2027-01-20T06:00:00Z",
        "resources": [],
        "detail": detail,
    }


@given(own=st.from_regex(r"[A-Za-z0-9._-]{1,80}", fullmatch=True), first=st.uuids(), second=st.uuids())
def test_a_producers_id_names_the_run_whatever_event_carried_it(own, first, second):
    detail = {"prompt": "EY123 on 20 Jan had a mechanical failure", "disruption_id": own, "ops_date": "2027-01-20"}
    sent = request_for(parse_event(_event(detail, str(first))))
    resent = request_for(parse_event(_event(detail, str(second))))
    assert sent.disruption_id == resent.disruption_id == disruption_id_for(own)
    assert sent.ops_date == date(2027, 1, 20)


def test_without_one_the_event_id_names_it():
    request = request_for(parse_event(_event({"prompt": "EY123 on 20 Jan had a mechanical failure"}, "abc")))
    assert request.disruption_id == disruption_id_for("abc") and request.ops_date is None


@pytest.mark.parametrize(
    ("field", "value"), [("disruption_id", "a/b"), ("disruption_id", "x" * 81), ("ops_date", "20 January")]
)
def test_a_bad_id_or_day_is_one_line_naming_the_field(field, value):
    with pytest.raises(InvalidEvent, match=field):
        parse_event(_event({"prompt": "EY123 on 20 Jan had a mechanical failure", field: value}))
