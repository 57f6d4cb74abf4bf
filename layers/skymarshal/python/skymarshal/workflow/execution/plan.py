"""An approved scenario's actions → the row changes that carry them out, each guarded by the condition that
the row is still as the plan read it.

A `Change` is one row: its before-image (None: the row is created), its after-image (None: the row is
deleted) and an optional semantic guard ("the flight still flies A6-BLQ"). Its transaction item checks,
besides the guard, that every attribute it writes still holds the value that was read — so a row changed
by someone else since the read fails the transaction instead of being overwritten, and the before-image is
exact for everything the change touches. Updates write only the attributes that differ (SET/REMOVE), never
the whole row: a concurrent change to another attribute survives both the plan and its compensation.
The inverse of a change is the same change with the images swapped, so compensation needs no separate code
and is itself conditioned on the after-image still being there. `Change` and its conditions are in
`workflow.execution.changes`; the `Planner` here reads the rows and builds the changes.

Rows are read with GetItem and Query only (index reads are eventually consistent; the per-attribute
conditions make a stale read fail at commit rather than write stale data).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from ...arbitration.actions import (
    AddCabinCrew,
    CancelFlight,
    ContinueFlight,
    DelayFlight,
    DivertFlight,
    FerryAircraft,
    GroundAircraft,
    ReassignCrew,
    RebookPassengers,
    RepositionFleet,
    RestCrew,
    StandDownCrew,
    SwapAircraft,
)
from ...arbitration.rotation.checks import SWAPPABLE
from ...data import schema as s
from ...models.airports import airport
from ...models.common import iso_z
from ...rules.guest_models import PREMIUM_TIERS, VULNERABLE_SSR
from ...rules.network import ACTIVE_BOOKINGS
from ..aws.dynamodb import Attr, ConditionBase, Key
from .changes import Change, PlanError, all_of, row_key
from .continuation import continuation_changes
from .crew import (
    cabin_crew_changes,
    crew_to_times,
    delay_crew_changes,
    flight_times,
    moved_rows,
    positioning_row,
    rest_crew_changes,
)
from .ferry import ferry_changes
from .integrity import rotation_refusal
from .journeys import first_booked, journey_changes
from .positions import grounding_changes, position_changes
from .reader import OPERABLE, RowReader

CABINS = ("F", "J", "Y")  # best first
TIERS = ("PLATINUM", "GOLD", "SILVER", "BRONZE", "NONE")
INTERLINE = "INTERLINE"  # Booking.rebooked_to of a passenger placed on another carrier


class Planner(RowReader):
    """Reads the rows an action touches and returns its changes; `execution_id` marks every written row."""

    def _update_flight(self, flight: dict, changes: dict, guard: ConditionBase | None = None) -> Change:
        return self._change(
            s.FLIGHTS, flight, {**flight, **changes}, all_of(Attr("status").is_in(list(OPERABLE)), guard)
        )

    def changes(self, action) -> list[Change]:
        if not self._checked:  # network plans too: their validation checks every turn of every touched tail
            self._checked = True
            refused = rotation_refusal(self.tables, self.scenario)
            if refused is not None:
                raise PlanError("ROTATION_BROKEN", f"refused, nothing executed: {refused}")
        applied = _APPLIED_BY.get(type(action))
        if applied is not None:
            return applied(self, action)
        if isinstance(action, DelayFlight):  # the crew's roster rows move with the flight, in the same transaction
            return [
                self._update_flight(
                    self._flight(action.flight_id),
                    {
                        "estimated_departure": iso_z(action.new_departure),
                        "estimated_arrival": iso_z(action.new_arrival),
                        "delay_minutes": action.delay_minutes,
                        "status": "DELAYED" if action.delay_minutes > 0 else "SCHEDULED",  # re-timed, on time
                    },
                ),
                *delay_crew_changes(self, action),
            ]
        if isinstance(action, CancelFlight):
            flight = self._flight(action.flight_id)
            earlier = flight.get("delay_reason")  # kept: the cause the flight was already delayed for
            reason = f"CANCELLED: {action.reason}" + (f"; earlier: {earlier}" if earlier else "")
            return [self._update_flight(flight, {"status": "CANCELLED", "delay_reason": reason})]
        if isinstance(action, DivertFlight):
            return [
                self._update_flight(
                    self._flight(action.flight_id),
                    {
                        "status": "DIVERTED",
                        "diverted_to": action.alternate,
                        "estimated_arrival": iso_z(action.new_arrival),
                    },
                )
            ]
        raise TypeError(f"no execution for {type(action).__name__}")

    def _swap(self, a: SwapAircraft) -> list[Change]:
        """The flight's tail, type and seat map become the new aircraft's; the new aircraft's day must still be
        SPARE or IN_SERVICE (checked, not written: AircraftAvailability rows carry no execution mark, and the
        assignment shows through the flights table's aircraft-registration-index)."""
        flight = self._flight(a.flight_id)
        day = self._get(
            s.AIRCRAFT_AVAILABILITY, {"aircraft_registration": a.to_registration, "date": flight["flight_date"]}
        )
        if day is None:
            raise PlanError("ROW_MISSING", f"{a.to_registration} has no availability row for {flight['flight_date']}")
        check = Change(
            s.AIRCRAFT_AVAILABILITY,
            row_key(s.AIRCRAFT_AVAILABILITY, day),
            day,
            day,
            Attr("status").is_in(list(SWAPPABLE)) & Attr("aircraft_type").eq(a.to_aircraft_type),
        )
        swap = self._update_flight(
            flight,
            {
                "aircraft_registration": a.to_registration,
                "aircraft_type": a.to_aircraft_type,
                "capacity": day["capacity"],
            },
            Attr("aircraft_registration").eq(a.from_registration),
        )
        # the flight's crew stay with it: a roster still at the schedule of a late flight is put at its times
        return [swap, check, *crew_to_times(self, a.flight_id, *flight_times(flight))]

    def _crew(self, a: ReassignCrew) -> list[Change]:
        """Each replaced member's sector row — and the later sectors of the same duty, which the reserve's
        legality was checked for — is released (deleted); the reserve gets those sectors as a new FLIGHT duty
        reporting at `report_at`. The reserve's standby that day leaves the standby index: when it covers the
        report it ends there (the call-out record stays: the FTL rules count standby before an FDP); one that
        had not begun is replaced by the duty (deleted); one already over stays as it was."""
        flight = self._flight(a.flight_id)
        report = iso_z(a.report_at)
        # reserves positioned from another station are called out there and start their duty there
        station = (
            self._flight(a.positioning_flight_id)["origin"]
            if a.positioning_flight_id
            else a.positioning_ferry or flight["origin"]
        )
        local_day = a.report_at.astimezone(ZoneInfo(airport(station).tz)).date()
        # a night call-out can fall on the next day, or inside the standby that began the day before
        days = {(local_day - timedelta(days=1)).isoformat(), local_day.isoformat(), str(flight["flight_date"])}
        standby = self.standby(station, days)
        seats = {
            r["crew_id"]: r
            for r in self._query(s.CREW_ROSTER, Key("flight_id").eq(a.flight_id), s.FLIGHT_POSITION_INDEX)
        }
        out: list[Change] = []
        for original, reserve in sorted(a.replacements.items()):
            duty = self._duty_from(seats, original, a.flight_id)
            out.append(self.call_out(standby, reserve, report, station, local_day))
            # the reserve's sector at the flight's times as it now operates (the roster may still hold the schedule)
            taken = moved_rows(sorted(duty, key=lambda r: r["duty_key"]), a.flight_id, *flight_times(flight))
            for row, timed in zip(sorted(duty, key=lambda r: r["duty_key"]), taken, strict=True):
                out.append(self._change(s.CREW_ROSTER, row, None))
                new = {
                    **timed,
                    "crew_id": reserve,
                    "duty_key": f"{report}#{row.get('sector_departure', '')}#{row['flight_id']}",
                    "duty_id": f"D-{reserve}-{report}",
                    "duty_start": report,
                    "start_station": station,
                    "sectors": len(duty),
                }
                out.append(self._change(s.CREW_ROSTER, None, new))
            positioned = positioning_row(self, a, reserve, report)
            if positioned is not None:
                out.append(self._change(s.CREW_ROSTER, None, positioned))
        return out

    def _duty_from(self, seats: dict[str, dict], crew_id: str, flight_id: str) -> list[dict]:
        """`crew_id`'s sector rows of `flight_id` (its seat among `seats`, the flight's roster rows by member) and of
        the later sectors of the same duty."""
        seat = seats.get(crew_id)
        if seat is None:
            raise PlanError("ROW_MISSING", f"{crew_id} is no longer rostered on {flight_id}")
        return [
            r
            for r in self._query(
                s.CREW_ROSTER,
                Key("crew_id").eq(crew_id) & Key("duty_key").begins_with(seat["duty_key"].split("#")[0] + "#"),
            )
            if r["duty_id"] == seat["duty_id"]
            and r["kind"] == "FLIGHT"
            and r.get("sector_departure", "") >= seat.get("sector_departure", "")
        ]

    def _stand_down(self, a: StandDownCrew) -> list[Change]:
        """Each stood-down member's sectors of the flight and of the rest of that duty are released (deleted): the
        flight operates with the cabin crew left, whose rows are unchanged."""
        seats = {
            r["crew_id"]: r
            for r in self._query(s.CREW_ROSTER, Key("flight_id").eq(a.flight_id), s.FLIGHT_POSITION_INDEX)
        }
        return [
            self._change(s.CREW_ROSTER, row, None)
            for crew_id in sorted(a.crew_ids)
            for row in self._duty_from(seats, crew_id, a.flight_id)
        ]

    def _rebook(self, a: RebookPassengers) -> list[Change]:
        """Active bookings move onto the target flights in the numbers the plan gives — vulnerable, premium and
        connecting passengers first, a party (PNR) kept together in that order — in their own cabin when it has a
        free seat, else the best cabin that has one; the rest go interline (status REBOOKED, rebooked_to
        INTERLINE). Each target flight's booked counts rise and the source's fall, so free seats stay true."""
        if not a.onto and not a.interline:
            return []  # ground transport after a diversion: nothing in the operational tables changes
        if a.journeys:  # the earliest ways home the plan found, every flight of each journey (issue 46 item 2)
            return journey_changes(self, a, _priority)
        source = self._flight(a.flight_id)
        rows = [
            r
            for r in self._query(s.BOOKINGS, Key("flight_id").eq(a.flight_id), s.FLIGHT_ID_INDEX)
            if r.get("status") in ACTIVE_BOOKINGS
        ]
        targets = {f: self._flight(f) for f in a.onto}
        free = {
            f: {c: int(t.get("capacity", {}).get(c, 0)) - int(t.get("booked", {}).get(c, 0)) for c in CABINS}
            for f, t in targets.items()
        }
        booked = {
            f: {c: int(n) for c, n in t.get("booked", {}).items()} for f, t in {**targets, a.flight_id: source}.items()
        }
        queue = iter(_priority(rows))
        moves: list[Change] = []
        guard = Attr("flight_id").eq(a.flight_id) & Attr("status").is_in(list(ACTIVE_BOOKINGS))
        for flight_id, count in a.onto.items():
            for row in (next(queue, None) for _ in range(count)):
                if row is None:
                    break
                cabin = _seat(free[flight_id], row["cabin"])
                if cabin is None:
                    raise PlanError(
                        "SEATS_UNAVAILABLE",
                        f"{flight_id} has no free seat left for the {count} passengers the plan moves there",
                    )
                free[flight_id][cabin] -= 1
                booked[flight_id][cabin] = booked[flight_id].get(cabin, 0) + 1
                booked[a.flight_id][row["cabin"]] = max(0, booked[a.flight_id].get(row["cabin"], 0) - 1)
                moves.append(
                    self._change(
                        s.BOOKINGS,
                        row,
                        {
                            **row,
                            "flight_id": flight_id,
                            "cabin": cabin,
                            "status": "CONFIRMED",
                            "rebooked_from": first_booked(row),
                        },
                        guard,
                    )
                )
        for row in queue:  # interline: the plan's count, and anyone booked since it was made
            booked[a.flight_id][row["cabin"]] = max(0, booked[a.flight_id].get(row["cabin"], 0) - 1)
            moves.append(
                self._change(
                    s.BOOKINGS,
                    row,
                    {**row, "status": "REBOOKED", "rebooked_to": INTERLINE, "rebooked_from": first_booked(row)},
                    guard,
                )
            )
        # The flights go first, in the first chunk: a target that filled up or was cancelled, or a source no longer
        # as the plan saw it (reinstated after the cancellation), stops the group before any passenger moves.
        counts = [
            self._change(
                s.FLIGHTS,
                row,
                {**row, "booked": booked[flight_id]},
                Attr("status").eq(row["status"]) if flight_id == a.flight_id else Attr("status").ne("CANCELLED"),
            )
            for flight_id, row in {a.flight_id: source, **targets}.items()
            if booked[flight_id] != {c: int(n) for c, n in row.get("booked", {}).items()}
        ]
        return counts + moves


def _priority(rows: list[dict]) -> list[dict]:
    """Bookings in rebooking order: a PNR's rows together, parties ordered by their most urgent member."""

    def urgency(r: dict) -> tuple:
        return (
            not any(x in VULNERABLE_SSR for x in r.get("ssr", [])),
            CABINS.index(r["cabin"]),
            r.get("loyalty_tier", "NONE") not in PREMIUM_TIERS,
            TIERS.index(r.get("loyalty_tier", "NONE")),
            not r.get("onward_flight_id"),
        )

    parties: dict[str, list[dict]] = {}
    for r in rows:
        parties.setdefault(r["pnr"], []).append(r)
    order = sorted(parties.values(), key=lambda party: (min(urgency(r) for r in party), party[0]["pnr"]))
    return [r for party in order for r in sorted(party, key=lambda r: r["booking_id"])]


def _seat(free: dict[str, int], cabin: str) -> str | None:
    """The passenger's own cabin if it has a seat, else an upgrade, else the best lower cabin with one."""
    mine = CABINS.index(cabin)
    for c in (cabin, *reversed(CABINS[:mine]), *CABINS[mine + 1 :]):
        if free.get(c, 0) > 0:
            return c
    return None


# The actions whose changes one function makes from the planner and the action (the rest are written inline above).
_APPLIED_BY: dict[type, Callable[[Planner, Any], list[Change]]] = {
    SwapAircraft: Planner._swap,
    ReassignCrew: Planner._crew,
    StandDownCrew: Planner._stand_down,
    AddCabinCrew: cabin_crew_changes,
    RestCrew: rest_crew_changes,
    RebookPassengers: Planner._rebook,
    FerryAircraft: ferry_changes,
    ContinueFlight: continuation_changes,
    GroundAircraft: grounding_changes,
    RepositionFleet: position_changes,
}
