"""Network effects of a delay: propagation along a tail's rotation, and misconnections at a connecting airport.

- ``propagate_delay``  reactionary delay along one aircraft's rotation (the "knock-on" delay of EUROCONTROL CODA
                       reporting, absorbed by the turn buffers). For each later flight:
                       delay = max(0, previous arrival delay − (scheduled turn − minimum turn)),
                       the minimum turn being the type's ``min_turn_minutes``. A flight's arrival delay equals its
                       departure delay (block time as scheduled; no en-route recovery). A scheduled turn shorter
                       than the minimum (negative buffer) adds to the delay — the turn cannot be shortened below it.
                       Cancelled flights are skipped; times are the scheduled ones (delays relative to schedule).
- ``misconnections``   a connection breaks when onward departure − inbound arrival < the minimum connection time
                       (MCT: the airport profile's ``min_connection_minutes``, else ``NetworkConfig.default_mct``,
                       60 min = the carrier's AUH hub MCT, company data, verify). Exactly the MCT holds. A cancelled
                       inbound or onward flight breaks the connection too. Counted per onward flight, with booking ids.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, NonNegativeInt, PositiveInt

from ..models.findings import Finding
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import AirportProfile, Booking, Flight
from ._clock import as_utc, minutes_between

PROPAGATION_CLAUSE = "Reactionary delay through turn buffers (EUROCONTROL CODA delay causes 91-96)"
MCT_CLAUSE = "Minimum connection time (airport/carrier MCT, IATA SSIM chapter 8)"
ACTIVE_BOOKINGS: tuple[str, ...] = ("CONFIRMED", "CHECKED_IN", "BOARDED")


class NetworkConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    default_mct: PositiveInt = 60  # the carrier's hub MCT when the profile has none (company data, verify)


DEFAULT_NETWORK = NetworkConfig()


class FlightDelay(BaseModel):
    model_config = ConfigDict(frozen=True)

    flight_id: str
    flight_number: str
    origin: str
    destination: str
    buffer_minutes: int | None  # scheduled turn − minimum turn before this flight (None: the initial flight)
    departure_delay_minutes: NonNegativeInt
    arrival_delay_minutes: NonNegativeInt


class DelayPropagation(BaseModel):
    model_config = ConfigDict(frozen=True)

    registration: str | None
    initial_flight_id: str
    initial_delay_minutes: NonNegativeInt
    flights: tuple[FlightDelay, ...]  # the initial flight and every later one, until the delay is absorbed
    affected_flight_ids: tuple[str, ...]  # later flights that inherit a delay
    absorbed_by_flight_id: str | None  # the first later flight leaving on time (None: not absorbed)
    end_of_day_arrival_delay_minutes: NonNegativeInt  # arrival delay of the last flight given
    total_delay_minutes: NonNegativeInt  # sum of the departure delays, initial flight included
    findings: tuple[Finding, ...]

    def delays(self) -> dict[str, int]:
        return {f.flight_id: f.departure_delay_minutes for f in self.flights}


def turn_buffer_minutes(previous: Flight, following: Flight) -> int:
    """Scheduled turn minus the type's minimum turn (negative when the schedule is tighter than the minimum)."""
    turn = minutes_between(previous.scheduled_arrival, following.scheduled_departure)
    return turn - AIRCRAFT_TYPES[following.aircraft_type].min_turn_minutes


def propagate_delay(rotation: Sequence[Flight], initial_flight_id: str, initial_delay_minutes: int) -> DelayPropagation:
    """Delay of every later flight of the rotation (in scheduled order) from ``initial_delay_minutes`` on one flight."""
    if initial_delay_minutes < 0:
        raise ValueError("a delay is not negative")
    flights = sorted((f for f in rotation if f.status != "CANCELLED"), key=lambda f: f.scheduled_departure)
    index = next((i for i, f in enumerate(flights) if f.flight_id == initial_flight_id), None)
    if index is None:
        raise ValueError(f"{initial_flight_id} is not a flight of the rotation")
    first = flights[index]
    out = [
        FlightDelay(
            flight_id=first.flight_id,
            flight_number=first.flight_number,
            origin=first.origin,
            destination=first.destination,
            buffer_minutes=None,
            departure_delay_minutes=initial_delay_minutes,
            arrival_delay_minutes=initial_delay_minutes,
        )
    ]
    absorbed: str | None = None
    delay = initial_delay_minutes
    for previous, following in zip(flights[index:], flights[index + 1 :]):
        buffer = turn_buffer_minutes(previous, following)
        delay = max(0, delay - buffer)
        out.append(
            FlightDelay(
                flight_id=following.flight_id,
                flight_number=following.flight_number,
                origin=following.origin,
                destination=following.destination,
                buffer_minutes=buffer,
                departure_delay_minutes=delay,
                arrival_delay_minutes=delay,
            )
        )
        if delay == 0:
            absorbed = following.flight_id
            break
    affected = tuple(f.flight_id for f in out[1:] if f.departure_delay_minutes > 0)
    end = 0 if absorbed is not None else out[-1].arrival_delay_minutes  # not absorbed: the loop ran to the end
    total = sum(f.departure_delay_minutes for f in out)
    finding = Finding(
        rule="net.propagation",
        clause=PROPAGATION_CLAUSE,
        status="at_risk" if affected else "legal",
        subject=first.aircraft_registration,
        actual=total,
        unit="minutes",
        message=(
            f"{initial_delay_minutes} min on {first.flight_number} "
            + (
                f"propagates to {len(affected)} later flight(s) ({', '.join(affected)}); "
                if affected
                else "is absorbed by the next turn; "
            )
            + (f"absorbed before {absorbed}." if absorbed else f"not absorbed: the day ends {end} min late.")
        ),
        details={"absorbed_by": absorbed, "end_of_day_arrival_delay_minutes": end},
    )
    return DelayPropagation(
        registration=first.aircraft_registration,
        initial_flight_id=first.flight_id,
        initial_delay_minutes=initial_delay_minutes,
        flights=tuple(out),
        affected_flight_ids=affected,
        absorbed_by_flight_id=absorbed,
        end_of_day_arrival_delay_minutes=end,
        total_delay_minutes=total,
        findings=(finding,),
    )


BreakReason = Literal["SHORT_CONNECTION", "INBOUND_CANCELLED", "ONWARD_CANCELLED"]


class BrokenConnection(BaseModel):
    model_config = ConfigDict(frozen=True)

    booking_id: str  # the inbound segment's booking (the onward one when only that was given)
    passenger_id: str
    inbound_flight_id: str
    onward_flight_id: str
    connection_minutes: int | None  # None when a flight is cancelled
    mct_minutes: int
    reason: BreakReason


class OnwardMisconnection(BaseModel):
    model_config = ConfigDict(frozen=True)

    onward_flight_id: str
    passengers: int
    booking_ids: tuple[str, ...]


class MisconnectionReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    mct_minutes: int
    connections_checked: int
    broken: tuple[BrokenConnection, ...]
    by_onward_flight: tuple[OnwardMisconnection, ...]
    findings: tuple[Finding, ...]

    @property
    def passengers(self) -> int:
        return len(self.broken)

    @property
    def booking_ids(self) -> tuple[str, ...]:
        return tuple(b.booking_id for b in self.broken)


def connection_holds(arrival: datetime, departure: datetime, mct_minutes: int) -> bool:
    """Departure − arrival ≥ MCT (exactly the MCT holds)."""
    return minutes_between(arrival, departure) >= mct_minutes


def misconnections(
    inbound: Sequence[Flight],
    onward: Sequence[Flight],
    bookings: Sequence[Booking],
    *,
    hub: AirportProfile | None = None,
    new_arrivals: Mapping[str, datetime] | None = None,
    new_departures: Mapping[str, datetime] | None = None,
    config: NetworkConfig = DEFAULT_NETWORK,
) -> MisconnectionReport:
    """Connections between ``inbound`` and ``onward`` flights that break under the new times.

    Times: ``new_arrivals``/``new_departures`` by flight id, else each flight's best known time (estimate, else
    schedule). Bookings link the flights (an inbound row with ``onward_flight_id``, or an onward row with
    ``inbound_flight_id``); a passenger's connection is counted once. Only active bookings count.
    """
    mct = hub.min_connection_minutes if hub is not None and hub.min_connection_minutes else config.default_mct
    ins = {f.flight_id: f for f in inbound}
    outs = {f.flight_id: f for f in onward}
    arrivals = {fid: as_utc((new_arrivals or {}).get(fid, f.arrival)) for fid, f in ins.items()}
    departures = {fid: as_utc((new_departures or {}).get(fid, f.departure)) for fid, f in outs.items()}
    pairs: dict[tuple[str, str, str], Booking] = {}
    for b in bookings:
        if b.status not in ACTIVE_BOOKINGS:
            continue
        if b.flight_id in ins and b.onward_flight_id in outs:
            key = (b.passenger_id, b.flight_id, b.onward_flight_id)
            pairs[key] = b  # the inbound row wins
        elif b.flight_id in outs and b.inbound_flight_id in ins:
            pairs.setdefault((b.passenger_id, b.inbound_flight_id, b.flight_id), b)
    broken: list[BrokenConnection] = []
    for (passenger, in_id, out_id), b in sorted(pairs.items()):
        first, second = ins[in_id], outs[out_id]
        minutes = minutes_between(arrivals[in_id], departures[out_id])
        reason: BreakReason | None = None
        if first.status == "CANCELLED":
            reason = "INBOUND_CANCELLED"
        elif second.status == "CANCELLED":
            reason = "ONWARD_CANCELLED"
        elif minutes < mct:
            reason = "SHORT_CONNECTION"
        if reason is not None:
            broken.append(
                BrokenConnection(
                    booking_id=b.booking_id,
                    passenger_id=passenger,
                    inbound_flight_id=in_id,
                    onward_flight_id=out_id,
                    connection_minutes=None if reason != "SHORT_CONNECTION" else minutes,
                    mct_minutes=mct,
                    reason=reason,
                )
            )
    grouped: dict[str, list[str]] = {}
    for c in broken:
        grouped.setdefault(c.onward_flight_id, []).append(c.booking_id)
    by_onward = tuple(
        OnwardMisconnection(onward_flight_id=fid, passengers=len(ids), booking_ids=tuple(ids))
        for fid, ids in sorted(grouped.items())
    )
    findings = tuple(
        Finding(
            rule="net.misconnection",
            clause=MCT_CLAUSE,
            status="at_risk",
            subject=m.onward_flight_id,
            actual=m.passengers,
            unit="passengers",
            message=f"{m.passengers} connecting passenger(s) miss {m.onward_flight_id} (MCT {mct} min).",
            details={"booking_ids": list(m.booking_ids)},
        )
        for m in by_onward
    )
    return MisconnectionReport(
        mct_minutes=mct,
        connections_checked=len(pairs),
        broken=tuple(broken),
        by_onward_flight=by_onward,
        findings=findings,
    )
