"""A cancellation's passengers written onto the journeys the plan found (issue 46 item 2): each booking of the
cancelled flight, party by party (``rules.reaccommodation.party_key``) in the plan's priority order, takes its party's
journeys in turn — its own row moved to the first flight, its later segments (the onward rows of its itinerary)
moved to the next flights, a new row for a flight beyond them, and a segment the journey no longer needs cancelled.

Each flight's booked counts follow (+1 where a seat is taken, in the passenger's cabin or the nearest with a seat;
-1 where one is left), and a flight with no free seat stops the group (SEATS_UNAVAILABLE) before anything is written:
no overbooking beyond capacity. Passengers the journeys do not take go interline, as before. Rows are read by key
and by flight-id-index only; every change is guarded by the row as read (``workflow.execution.changes``).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from ...arbitration.actions import RebookJourney, RebookPassengers
from ...data import schema as s
from ...models.operational import Booking
from ...rules.network import ACTIVE_BOOKINGS
from ...rules.reaccommodation import party_key
from ...rules.reaccommodation import seat_order as _order
from ..aws.dynamodb import Attr, Key
from .changes import Change, PlanError

if TYPE_CHECKING:
    from .reader import RowReader

INTERLINE = "INTERLINE"
MAX_SEGMENTS = 3  # the itinerary followed onward from the cancelled row (the journeys have at most three flights)


class _Ledger:
    """The rows of every flight the group touches, read once, with their booked counts as the group changes them."""

    def __init__(self, planner: RowReader):
        self.p = planner
        self.rows: dict[str, dict] = {}
        self.booked: dict[str, dict[str, int]] = {}
        self.bookings: dict[str, list[dict]] = {}
        self.targets: set[str] = set()  # flights a seat is taken on (they must still fly)

    def flight(self, flight_id: str) -> dict:
        if flight_id not in self.rows:
            row = self.p._flight(flight_id)
            self.rows[flight_id] = row
            self.booked[flight_id] = {c: int(n) for c, n in row.get("booked", {}).items()}
        return self.rows[flight_id]

    def on(self, flight_id: str) -> list[dict]:
        if flight_id not in self.bookings:
            self.bookings[flight_id] = [
                r
                for r in self.p._query(s.BOOKINGS, Key("flight_id").eq(flight_id), s.FLIGHT_ID_INDEX)
                if r.get("status") in ACTIVE_BOOKINGS
            ]
        return self.bookings[flight_id]

    def seat(self, flight_id: str, cabin: str) -> str:
        """A seat on `flight_id` (own cabin, else up, else down), counted; none free: the group stops."""
        row = self.flight(flight_id)
        self.targets.add(flight_id)
        for c in _order(cabin):  # type: ignore[arg-type]
            if int(row.get("capacity", {}).get(c, 0)) - self.booked[flight_id].get(c, 0) > 0:
                self.booked[flight_id][c] = self.booked[flight_id].get(c, 0) + 1
                return c
        raise PlanError(
            "SEATS_UNAVAILABLE", f"{flight_id} has no free seat left for the passengers the plan moves there"
        )

    def leave(self, flight_id: str, cabin: str) -> None:
        self.flight(flight_id)
        self.booked[flight_id][cabin] = max(0, self.booked[flight_id].get(cabin, 0) - 1)

    def count_changes(self, source: str) -> list[Change]:
        """The flights whose counts moved, the source guarded by its status as read (a reinstated flight stops the
        group), a flight a seat is taken on by not being cancelled; a flight a segment only leaves needs neither."""
        return [
            self.p._change(
                s.FLIGHTS,
                row,
                {**row, "booked": self.booked[fid]},
                Attr("status").eq(row["status"])
                if fid == source
                else Attr("status").ne("CANCELLED")
                if fid in self.targets
                else None,
            )
            for fid, row in self.rows.items()
            if self.booked[fid] != {c: int(n) for c, n in row.get("booked", {}).items()}
        ]


def _itinerary(ledger: _Ledger, row: dict) -> list[dict]:
    """The passenger's row and their later segments, followed by onward flight (the same PNR and passenger)."""
    chain = [row]
    while len(chain) < MAX_SEGMENTS and chain[-1].get("onward_flight_id"):
        onward = chain[-1]["onward_flight_id"]
        nxt = next(
            (
                r
                for r in ledger.on(onward)
                if r["passenger_id"] == row["passenger_id"] and r["pnr"] == row["pnr"] and r not in chain
            ),
            None,
        )
        if nxt is None:
            break
        chain.append(nxt)
    return chain


def first_booked(row: dict) -> str:
    """The flight the passenger's row was booked on before any recovery moved it: a row moved again keeps it, so the
    day's scorecard and EU261 measure the journey from the schedule the passenger bought (a second move naming the
    flight of the first had the delay counted from that flight's later arrival)."""
    return row.get("rebooked_from") or row["flight_id"]


def _write(ledger: _Ledger, a: RebookPassengers, row: dict, journey: RebookJourney) -> list[Change]:
    """One passenger's rows onto `journey`'s flights: the cancelled row on the first, their later segments on the
    next (kept where already on it), new rows beyond them, the segments left over cancelled."""
    p, legs, chain = ledger.p, journey.flights, _itinerary(ledger, row)
    out: list[Change] = []
    for i, leg in enumerate(legs):
        base = chain[i] if i < len(chain) else None
        links = {
            "inbound_flight_id": legs[i - 1] if i else row.get("inbound_flight_id"),
            "onward_flight_id": legs[i + 1] if i + 1 < len(legs) else None,
            "segment": int(row.get("segment", 1)) + i,
        }
        if base is not None and base["flight_id"] == leg and i:
            after = {**base, **links}  # the protected connection kept: only its links may change
            if after != base:
                out.append(p._change(s.BOOKINGS, base, after, Attr("flight_id").eq(leg)))
            continue
        cabin = ledger.seat(leg, (base or row)["cabin"])
        if base is not None:
            ledger.leave(base["flight_id"], base["cabin"])
            after = {**base, **links, "flight_id": leg, "cabin": cabin, "status": "CONFIRMED"}
            after["rebooked_from"] = first_booked(base)
            guard = Attr("flight_id").eq(base["flight_id"]) & Attr("status").is_in(list(ACTIVE_BOOKINGS))
            out.append(p._change(s.BOOKINGS, base, after, guard))
        else:  # a flight beyond the itinerary's segments: a new row, from the flight that was due at the destination
            new = {
                **{k: v for k, v in row.items() if k not in ("bag_tags", "updated_by_execution", "rebooked_to")},
                **links,
                "booking_id": f"{row['booking_id']}-R{i}",
                "flight_id": leg,
                "cabin": cabin,
                "status": "CONFIRMED",
                "fare_paid": 0,
                "rebooked_from": first_booked(chain[-1]),
            }
            out.append(p._change(s.BOOKINGS, None, new, Attr("booking_id").not_exists()))
    for left in chain[len(legs) :]:  # segments the journey no longer needs: cancelled, their seats given back
        ledger.leave(left["flight_id"], left["cabin"])
        guard = Attr("flight_id").eq(left["flight_id"]) & Attr("status").is_in(list(ACTIVE_BOOKINGS))
        out.append(p._change(s.BOOKINGS, left, {**left, "status": "CANCELLED", "onward_flight_id": None}, guard))
    return out


def journey_changes(planner: RowReader, a: RebookPassengers, priority) -> list[Change]:
    """The bookings of `a.flight_id` onto the plan's journeys (`priority`: the planner's rebooking order within a
    party); whoever no journey takes goes interline. Flight counts first, so a full or cancelled flight stops the
    group before any passenger moves."""
    ledger = _Ledger(planner)
    ledger.flight(a.flight_id)
    parties: dict[str, list[dict]] = defaultdict(list)
    for row in priority(ledger.on(a.flight_id)):
        parties[party_key(Booking.model_validate(row))].append(row)
    queues = {k: iter(v) for k, v in parties.items()}
    moves: list[Change] = []
    for journey in a.journeys:
        queue = queues.get(journey.party, iter(()))
        for row in (next(queue, None) for _ in range(journey.passengers)):
            if row is None:
                break
            moves += _write(ledger, a, row, journey)
    guard = Attr("flight_id").eq(a.flight_id) & Attr("status").is_in(list(ACTIVE_BOOKINGS))
    for queue in queues.values():  # interline: the plan's count, and anyone booked since it was made
        for row in queue:
            ledger.leave(a.flight_id, row["cabin"])
            after = {**row, "status": "REBOOKED", "rebooked_to": INTERLINE, "rebooked_from": first_booked(row)}
            moves.append(planner._change(s.BOOKINGS, row, after, guard))
    return ledger.count_changes(a.flight_id) + moves
