"""rules.reaccommodation: the earliest way home through the own network, seats checked (issue 46 item 2)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import pairwise

import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.rules.reaccommodation import (
    MAX_LEGS,
    Party,
    SeatLedger,
    reaccommodate,
    seat_order,
)

T0 = datetime(2027, 1, 20, tzinfo=UTC)
MCT = {"AUH": 60, "DOH": 45}


def flight(fid, number, origin, destination, dep_h, block_h=3.0, capacity=100, booked=0, status="SCHEDULED"):
    return row_builders.flight(
        number,
        origin,
        destination,
        dep=T0 + timedelta(hours=dep_h),
        block=int(block_h * 60),
        reg="A6-AAA",
        type_code="A320",
        distance_km=1000,
        flight_id=fid,
        capacity={"Y": capacity},
        booked={"Y": booked},
        status=status,
    )


def party(pid="P1", n=52, origin="AMM", destination="LHR", ready_h=6.0, due_h=16.0, **kw):
    return Party(
        party_id=pid,
        passengers=n,
        cabin=kw.pop("cabin", "Y"),
        origin=origin,
        ready=T0 + timedelta(hours=ready_h),
        waiting_since=T0 + timedelta(hours=ready_h),
        destination=destination,
        scheduled_arrival=T0 + timedelta(hours=due_h),
        **kw,
    )


# AMM-AUH EY346 cancelled at 06:00; tomorrow's EY346; a later AMM-AUH EY348 and AUH-LHR EY11 the same day.
CANCELLED = flight("EY346-0120", "EY346", "AMM", "AUH", 6, status="CANCELLED")
TOMORROW = flight("EY346-0121", "EY346", "AMM", "AUH", 30)
EY348 = flight("EY348-0120", "EY348", "AMM", "AUH", 11, booked=90)  # 10 seats free
EY352 = flight("EY352-0120", "EY352", "AMM", "AUH", 14, booked=0)
EY11 = flight("EY11-0120", "EY11", "AUH", "LHR", 16, block_h=7.5)
EY19 = flight("EY19-0120", "EY19", "AUH", "LHR", 22, block_h=7.5)
EY11_TOMORROW = flight("EY11-0121", "EY11", "AUH", "LHR", 40, block_h=7.5)
NETWORK = [CANCELLED, TOMORROW, EY348, EY352, EY11, EY19, EY11_TOMORROW]
HORIZON = T0 + timedelta(days=2)


def test_a_hub_connection_the_same_day_beats_the_next_days_flight():
    """The old re-accommodation put all 52 on tomorrow's EY346; the search finds the same day through the hub,
    10 on EY348 (its free seats), the other 42 on EY352, all on to LHR on EY11/EY19 the same evening."""
    result = reaccommodate(
        [party(destination="AUH", due_h=9)], NETWORK, HORIZON, MCT, SeatLedger()
    )  # destination the hub: direct only
    assert [(j.flight_ids, j.passengers) for j in result.journeys] == [
        (("EY348-0120",), 10),
        (("EY352-0120",), 42),
    ]
    home = reaccommodate([party()], NETWORK, HORIZON, MCT)
    assert [(j.flight_ids, j.passengers) for j in home.journeys] == [
        (("EY348-0120", "EY11-0120"), 10),
        (("EY352-0120", "EY19-0120"), 42),  # EY352 lands 17:00, EY11 left at 16:00
    ]
    assert all("EY346-0121" not in j.flight_ids for j in home.journeys)
    assert home.journeys[0].delay_minutes == (23.5 - 16) * 60 + 0  # EY11 lands 23:30 against 16:00 due
    assert not home.unplaced


def test_the_next_days_same_flight_only_when_nothing_earlier_has_seats():
    full = [f.model_copy(update={"booked": {"Y": 100}}) if f in (EY348, EY352) else f for f in NETWORK]
    result = reaccommodate([party(destination="AUH", due_h=9)], full, HORIZON, MCT)
    assert [(j.flight_ids, j.passengers) for j in result.journeys] == [(("EY346-0121",), 52)]
    assert result.journeys[0].overnight  # Amman's night between 06:00Z on the 20th and 06:00Z on the 21st


def test_minimum_connection_time_is_respected_exactly_the_mct_holds():
    inbound = flight("IN", "EY1", "AMM", "AUH", 6, block_h=3)  # lands 09:00
    tight = flight("OUT1", "EY2", "AUH", "LHR", 9.5)  # 30 min later: below the AUH MCT of 60
    exact = flight("OUT2", "EY3", "AUH", "LHR", 10)  # exactly the MCT
    result = reaccommodate([party(ready_h=5)], [inbound, tight, exact], HORIZON, MCT)
    assert result.journeys[0].flight_ids == ("IN", "OUT2")


def test_no_route_and_no_seats_are_typed_reasons():
    none = reaccommodate([party(destination="JFK")], NETWORK, HORIZON, MCT)
    assert [(u.code, u.passengers) for u in none.unplaced] == [("NO_ROUTE_IN_HORIZON", 52)]
    full = [f.model_copy(update={"booked": {"Y": 100}}) for f in NETWORK]
    nothing = reaccommodate([party()], full, HORIZON, MCT)
    assert [(u.code, u.passengers) for u in nothing.unplaced] == [("NO_SEATS_IN_HORIZON", 52)]


def test_protected_connections_and_premium_cabins_are_seated_first():
    seats = [EY348, EY11]  # 10 seats on the only way home
    economy = party("ECO", n=10)
    protected = party("PROT", n=6, protected=True)
    business = party("BIZ", n=4, cabin="J")
    result = reaccommodate([economy, business, protected], seats, HORIZON, MCT)
    assert [(j.party_id, j.passengers) for j in result.journeys] == [("PROT", 6), ("BIZ", 4)]
    assert [(u.party_id, u.passengers) for u in result.unplaced] == [("ECO", 10)]


def test_seat_order_is_own_cabin_then_upgrade_then_downgrade():
    assert seat_order("J") == ("J", "F", "Y")
    assert seat_order("Y") == ("Y", "J", "F")


# --- properties over generated networks -----------------------------------------------------------------------------

AIRPORTS = ["AUH", "AMM", "LHR", "DOH", "BOM"]


@st.composite
def networks(draw):
    n = draw(st.integers(min_value=1, max_value=18))
    flights = []
    for i in range(n):
        # hub and spoke, as the airline flies: every flight touches AUH (connections are the point), a few do not
        spoke = draw(st.sampled_from(AIRPORTS[1:]))
        origin, destination = draw(
            st.sampled_from([("AUH", spoke), (spoke, "AUH"), (spoke, draw(st.sampled_from(AIRPORTS[1:])))])
        )
        if origin == destination:
            destination = "AUH"
        capacity = draw(st.integers(min_value=0, max_value=12))
        flights.append(
            flight(
                f"F{i}",
                f"EY{100 + i % 6}",
                origin,
                destination,
                draw(st.integers(min_value=0, max_value=46 * 4)) / 4,
                block_h=draw(st.integers(min_value=2, max_value=32)) / 4,
                capacity=capacity,
                booked=draw(st.integers(min_value=0, max_value=capacity)),
                status=draw(st.sampled_from(["SCHEDULED", "SCHEDULED", "SCHEDULED", "CANCELLED"])),
            )
        )
    parties = []
    for i in range(draw(st.integers(min_value=1, max_value=5))):
        origin = draw(st.sampled_from(AIRPORTS))
        ready = draw(st.integers(min_value=0, max_value=24 * 4)) / 4
        parties.append(
            party(
                f"P{i}",
                n=draw(st.integers(min_value=1, max_value=15)),
                origin=origin,
                destination=draw(st.sampled_from([a for a in AIRPORTS if a != origin])),
                ready_h=ready,
                due_h=ready + 3,
                protected=draw(st.booleans()),
            )
        )
    return flights, parties


def _all_paths(p, flights, horizon):
    """Every path of up to MAX_LEGS flights home for `p`, brute force (seats: a free seat on each leg)."""
    usable = [f for f in flights if f.status == "SCHEDULED" and sum(f.capacity.values()) > sum(f.booked.values())]

    def extend(path):
        at = path[-1].destination if path else p.origin
        ready = path[-1].arrival + timedelta(minutes=MCT.get(at, 60)) if path else p.ready
        if path and at == p.destination:
            yield path
            return
        if len(path) == MAX_LEGS:
            return
        seen = {p.origin, *(f.destination for f in path)}
        for f in usable:
            if f.origin == at and f.departure >= ready and f.departure < horizon and f.destination not in seen:
                yield from extend([*path, f])

    return list(extend([]))


@settings(max_examples=150)
@given(networks())
def test_journeys_never_overbook_connect_in_order_and_end_home(drawn):
    flights, parties = drawn
    horizon = T0 + timedelta(hours=40)
    result = reaccommodate(parties, flights, horizon, MCT)
    by_id = {f.flight_id: f for f in flights}
    given_seats: dict[str, int] = {}
    for j in result.journeys:
        p = next(x for x in parties if x.party_id == j.party_id)
        legs = [by_id[fid] for fid in j.flight_ids]
        assert legs[0].origin == p.origin and legs[-1].destination == p.destination
        assert legs[0].departure >= p.ready
        assert all(f.status == "SCHEDULED" and f.departure < horizon for f in legs)
        for a, b in pairwise(legs):
            assert a.destination == b.origin
            assert b.departure - a.arrival >= timedelta(minutes=MCT.get(a.destination, 60))
        assert j.arrival == legs[-1].arrival and j.delay_minutes >= 0
        for fid in j.flight_ids:
            given_seats[fid] = given_seats.get(fid, 0) + j.passengers
    for fid, n in given_seats.items():
        f = by_id[fid]
        assert n <= sum(f.capacity.values()) - sum(f.booked.values())  # never above capacity
    for p in parties:  # every passenger accounted for once
        placed = sum(j.passengers for j in result.of(p.party_id))
        assert placed + sum(u.passengers for u in result.unplaced if u.party_id == p.party_id) == p.passengers


@settings(max_examples=150)
@given(networks())
def test_the_first_party_seated_gets_the_earliest_arrival_any_path_offers(drawn):
    """The party seated first sees every seat: its first journey arrives no later than any path home (brute force),
    so never later than the next day's same flight when that has seats; and it is placed if any path exists."""
    flights, parties = drawn
    horizon = T0 + timedelta(hours=40)
    first = sorted(parties, key=lambda p: (not p.protected, p.ready, p.party_id))[0]
    result = reaccommodate([first], flights, horizon, MCT)
    paths = _all_paths(first, flights, horizon)
    if not paths:
        assert not result.journeys and result.unplaced[0].code in ("NO_ROUTE_IN_HORIZON", "NO_SEATS_IN_HORIZON")
        return
    best = min(path[-1].arrival for path in paths)
    assert result.journeys[0].arrival == best
    assert all(a.arrival <= b.arrival for a, b in pairwise(result.journeys))  # later journeys never earlier


def test_a_party_is_split_only_when_its_journey_runs_out_of_seats():
    result = reaccommodate([party(destination="AUH", n=5, due_h=9)], NETWORK, HORIZON, MCT)
    assert [(j.flight_ids, j.passengers) for j in result.journeys] == [(("EY348-0120",), 5)]


def test_a_ledger_shared_by_two_calls_never_sells_the_same_seat_twice():
    ledger = SeatLedger()
    one = reaccommodate([party("A", n=8, destination="AUH", due_h=9)], NETWORK, HORIZON, MCT, ledger)
    two = reaccommodate([party("B", n=8, destination="AUH", due_h=9)], NETWORK, HORIZON, MCT, ledger)
    assert [(j.flight_ids, j.passengers) for j in one.journeys] == [(("EY348-0120",), 8)]
    assert [(j.flight_ids, j.passengers) for j in two.journeys] == [(("EY348-0120",), 2), (("EY352-0120",), 6)]
    assert date(2027, 1, 20) == EY348.flight_date
