"""A flight on the ground at an alternate, as a DIV message's overlay makes it, and the arbitrator's context for it
with the rules' layer alone (the agents' bounds are their own layer, tested elsewhere): for the tests of the
"continue from the alternate" option (tests/arbitration/test_continuation.py, tests/workflow/test_execution_continue.py)."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from skymarshal.arbitration.context import DisruptionContext, load_context
from skymarshal.data import queries as q
from skymarshal.data import schema
from skymarshal.data.access import DataHandle
from skymarshal.data.overlay import Overlay, RowPatch
from skymarshal.intake.corrected_facts import bare_disruption
from skymarshal.models.common import iso_z
from skymarshal.models.operational import Flight


def diverted_patch(flight: Flight, alternate: str, landed: datetime) -> RowPatch:
    return RowPatch(
        table=schema.FLIGHTS,
        key={"flight_id": flight.flight_id},
        fields={"status": "DIVERTED", "diverted_to": alternate, "estimated_arrival": iso_z(landed)},
        fact="diverted_to",
    )


def diverted(
    handle: DataHandle, flight: Flight, alternate: str, minutes: int, now: datetime
) -> tuple[DisruptionContext, datetime]:
    """The context of `flight` on the ground at `alternate` since `minutes` after it left, and when it landed."""
    landed = flight.departure + timedelta(minutes=minutes)
    seen = handle.with_overlay(Overlay(patches=[diverted_patch(flight, alternate, landed)]))
    there = q.get_flight(seen, flight.flight_id)
    assert there is not None
    ctx = load_context("", there, {}, seen, now, bare_disruption(there, [], 99))
    return dataclasses.replace(ctx, bounds=[]), landed
