"""A re-decision writes back the later flights its overlay released (issue 46): the knock-on of the earlier wait is
no floor, so a later flight the new delay no longer reaches returns to its released estimate, one it still reaches is
re-timed by the knock-on alone, and a decision that releases nothing is unchanged."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import bare_context, flight, utc

from skymarshal.arbitration.memo_keys import TailRead
from skymarshal.arbitration.rotation.plan import knock_on
from skymarshal.data import schema as s
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.models.disruption import Disruption, Scope

pytestmark = pytest.mark.unit
REG = "A6-ETD"
OUT = flight("EY424", "AUH", "MNL", utc(2027, 1, 20, 17, 25), block=365, reg=REG, delay_minutes=120)
BACK = flight("EY425", "MNL", "AUH", utc(2027, 1, 21, 3, 35), block=530, reg=REG)  # as released: on schedule
RELEASED = RowPatch(
    table=s.FLIGHTS, key={"flight_id": BACK.flight_id}, fields={"delay_minutes": 0}, fact="estimate_released"
)


def _ctx(patches=()):
    cause = Disruption(
        iata_delay_code=71, family="weather", cause="fog", scope=Scope(kind="flight", flights=[OUT.flight_id])
    )
    handle = SimpleNamespace(overlay=Overlay(patches=list(patches)))
    ctx = bare_context(OUT, cause, rotation=[OUT, BACK], handle=handle)
    ctx.memo(TailRead(REG), lambda: [OUT, BACK])
    return ctx


def test_a_later_flight_the_new_delay_no_longer_reaches_is_written_back_to_its_release():
    (back,) = knock_on(_ctx([RELEASED]), 120)
    assert (
        back.flight_id == BACK.flight_id and back.delay_minutes == 0 and back.new_departure == BACK.scheduled_departure
    )


@given(delay=st.integers(0, 900))
def test_one_retime_per_later_flight_never_earlier_than_the_knock_on(delay):
    released, plain = knock_on(_ctx([RELEASED]), delay), knock_on(_ctx(), delay)
    assert [a.flight_id for a in released] == [BACK.flight_id]
    assert plain == [] or plain == released  # the knock-on, where it reaches, is the write-back too
    assert not plain or released[0].delay_minutes > 0
