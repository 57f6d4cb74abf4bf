"""The flights of the tail a cancellation or a swap takes with the disrupted flight (rotation.plan.blocks): in the
rotation's order, whatever the report's ETD on the flight says."""

from __future__ import annotations

from datetime import timedelta
from types import SimpleNamespace

import pytest
from row_builders import bare_context, flight, utc

from skymarshal.arbitration.memo_keys import TailRead
from skymarshal.arbitration.rotation.plan import blocks
from skymarshal.data.overlay import Overlay
from skymarshal.models.disruption import Disruption, Scope

pytestmark = pytest.mark.unit
REG = "A6-EID"
STD = utc(2027, 1, 20, 2, 40)


@pytest.mark.parametrize("etd_minutes", [0, 60, 260, 900])
def test_an_out_and_back_return_is_in_the_first_block_whatever_the_flights_etd(etd_minutes):
    etd = STD + timedelta(minutes=etd_minutes)  # the report's ETD, overlaid on the flight
    out = flight(
        "EY313", "AUH", "MCT", STD, block=70, reg=REG, delay_minutes=etd_minutes,
        estimated_departure=etd, estimated_arrival=etd + timedelta(minutes=70),
    )  # fmt: skip
    back = flight("EY314", "MCT", "AUH", STD + timedelta(minutes=120), block=75, reg=REG)
    later = flight("EY341", "AUH", "BAH", STD + timedelta(minutes=600), block=90, reg=REG)
    cause = Disruption(
        iata_delay_code=82,
        family="atfm_airport_government",
        cause="security",
        scope=Scope(kind="flight", flights=[out.flight_id]),
    )
    ctx = bare_context(out, cause, rotation=[out, back, later], handle=SimpleNamespace(overlay=Overlay()))
    ctx.memo(TailRead(REG), lambda: [out, back, later])
    first, *_ = blocks(ctx)
    # EY314 leaves MCT before EY313's ETD once the hold passes two hours, but it is still the tail's next flight:
    # cancelling EY313 alone would leave it at MCT with no aircraft (ROTATION_BROKEN), so the block carries it
    assert [x.flight_number for x in first] == ["EY313", "EY314"]
