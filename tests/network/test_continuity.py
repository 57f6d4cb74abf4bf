"""Issue 30: every tail a network plan touches flies its flights in sequence over the data, past the optimizer's
horizon (network.continuity): a cancelled outbound takes its return with it, two tails left at each other's stations
exchange the rest of their rotations and swap back at the hub, a late tail re-times its next flights. Property
(hypothesis): whatever a plan cancels, swaps or delays on a hub-and-spoke airline, every touched tail's turns hold
after the repair."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import row_builders
from hypothesis import assume, event, given, settings
from hypothesis import strategies as st

from skymarshal.models.network_plan import FlightAction
from skymarshal.models.operational import Flight
from skymarshal.network.continuity import keep_continuous, touched_tails
from skymarshal.network.tails import broken_turn, plan_legs, tail_starts

DAY = datetime(2027, 1, 22, 6, tzinfo=UTC)
SPOKES = ("LHR", "CDG", "FRA", "MUC", "JFK")
TAILS = ("A6-BLA", "A6-BLB", "A6-BLC", "A6-BLD")


LONG_HAUL = {"distance_km": 5000, "capacity": {"J": 28, "Y": 262}, "booked": {"Y": 100}}


def flight(n: int, origin: str, destination: str, dep: datetime, reg: str, minutes: int = 300) -> Flight:
    return row_builders.flight(f"EY{n}", origin, destination, dep, minutes, reg, **LONG_HAUL)


def airline(spokes: list[int], stagger: list[int], rounds: int = 3) -> dict[str, list[Flight]]:
    """Each tail flies out-and-backs from AUH to its spokes, 90 min on the ground at each end."""
    out: dict[str, list[Flight]] = {}
    n = 100
    for t, reg in enumerate(TAILS):
        at = DAY + timedelta(minutes=stagger[t])
        rows = []
        for r in range(rounds):
            spoke = SPOKES[(spokes[t] + r) % len(SPOKES)]
            rows.append(flight(n, "AUH", spoke, at, reg))
            rows.append(flight(n + 1, spoke, "AUH", at + timedelta(minutes=390), reg))
            at += timedelta(minutes=780)
            n += 2
        out[reg] = rows
    return out


def row(f: Flight, action: str, **update) -> FlightAction:
    base = dict(
        flight_id=f.flight_id, flight_number=f.flight_number, origin=f.origin, destination=f.destination,
        action=action, scheduled_departure=f.scheduled_departure, scheduled_arrival=f.scheduled_arrival,
        new_departure=f.scheduled_departure, new_arrival=f.scheduled_arrival, registration=f.aircraft_registration,
        new_registration=f.aircraft_registration, aircraft_type=f.aircraft_type,
    )  # fmt: skip
    if action == "cancel":
        base |= {"new_departure": None, "new_arrival": None, "new_registration": None}
    return FlightAction(**(base | update))


TYPES = dict.fromkeys(TAILS, "B789")


def breaks(actions: list[FlightAction], rotations: dict[str, list[Flight]]) -> list[str]:
    legs, starts = plan_legs(actions, rotations), tail_starts(rotations)
    wrong_start = [
        f"{reg} starts at {starts[reg]}"
        for reg in touched_tails(actions)
        if legs.get(reg) and legs[reg][0].origin != starts[reg]
    ]
    return wrong_start + [
        why
        for reg in touched_tails(actions)
        for previous, leg in itertools.pairwise(legs.get(reg, []))
        if (why := broken_turn(previous, leg))
    ]


def test_a_cancelled_outbound_takes_its_return_and_the_tail_flies_on_from_the_hub():
    rotations = airline([0, 1, 2, 3], [0, 30, 60, 90])
    outbound, back, next_out = rotations["A6-BLA"][:3]
    plan = [row(outbound, "cancel")]
    assert breaks(plan, rotations)  # EY101 left on a tail that never flew out
    fixed = keep_continuous(plan, rotations, TYPES)
    by_id = {a.flight_id: a for a in fixed}
    assert by_id[back.flight_id].action == "cancel" and "A6-BLA is at AUH" in by_id[back.flight_id].reason
    assert next_out.flight_id not in by_id  # back on sequence: flies as scheduled
    assert breaks(fixed, rotations) == []


def test_two_tails_swapped_onto_each_others_outbound_swap_back_at_the_hub():
    rotations = airline([0, 1, 2, 3], [0, 0, 60, 90])
    a_out, b_out = rotations["A6-BLA"][0], rotations["A6-BLB"][0]
    plan = [row(a_out, "tail_swap", new_registration="A6-BLB"), row(b_out, "tail_swap", new_registration="A6-BLA")]
    fixed = keep_continuous(plan, rotations, TYPES)
    by_id = {a.flight_id: a for a in fixed}
    a_back, b_back = rotations["A6-BLA"][1], rotations["A6-BLB"][1]
    assert by_id[a_back.flight_id].new_registration == "A6-BLB"
    assert by_id[b_back.flight_id].new_registration == "A6-BLA"
    assert "swap back at AUH" in by_id[a_back.flight_id].reason
    assert rotations["A6-BLA"][2].flight_id not in by_id  # back on their own rotations after the hub
    assert breaks(fixed, rotations) == []


def test_a_late_tail_retimes_its_next_flight_to_the_minimum_turn():
    rotations = airline([0, 1, 2, 3], [0, 30, 60, 90])
    outbound, back = rotations["A6-BLC"][:2]
    late = timedelta(minutes=150)
    plan = [row(outbound, "retime", new_departure=outbound.scheduled_departure + late,
                new_arrival=outbound.scheduled_arrival + late, delay_minutes=150)]  # fmt: skip
    fixed = keep_continuous(plan, rotations, TYPES)
    knocked = next(a for a in fixed if a.flight_id == back.flight_id)
    assert knocked.action == "retime" and knocked.delay_minutes == 150 - 90 + 75
    assert breaks(fixed, rotations) == []


@settings(max_examples=150)
@given(
    spokes=st.lists(st.integers(0, 4), min_size=4, max_size=4),
    stagger=st.lists(st.integers(0, 240), min_size=4, max_size=4),
    cancels=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), max_size=3),
    delays=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5), st.integers(1, 300)), max_size=2),
    swap=st.one_of(st.none(), st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2))),
)
def test_any_plan_leaves_every_touched_tail_flying_in_sequence(spokes, stagger, cancels, delays, swap):
    rotations = airline(spokes, stagger)
    plan: dict[str, FlightAction] = {}
    if swap is not None and swap[0] != swap[1]:  # two outbounds from the hub exchanged (each tail is at AUH)
        a, b = rotations[TAILS[swap[0]]][2 * swap[2]], rotations[TAILS[swap[1]]][2 * swap[2]]
        if abs((a.scheduled_departure - b.scheduled_departure).total_seconds()) <= 3600:
            plan[a.flight_id] = row(a, "tail_swap", new_registration=b.aircraft_registration)
            plan[b.flight_id] = row(b, "tail_swap", new_registration=a.aircraft_registration)
    for t, i in cancels:
        f = rotations[TAILS[t]][i]
        plan.setdefault(f.flight_id, row(f, "cancel"))
    for t, i, minutes in delays:
        f = rotations[TAILS[t]][i]
        d = timedelta(minutes=minutes)
        plan.setdefault(
            f.flight_id,
            row(f, "retime", new_departure=f.scheduled_departure + d, new_arrival=f.scheduled_arrival + d,
                delay_minutes=minutes),
        )  # fmt: skip
    actions = list(plan.values())
    # only plans continuous up to their last row on each tail (as the optimizer's over its horizon and the
    # baseline's are): the repair answers for the flights after it, which the plan did not see
    legs = plan_legs(actions, rotations)
    last = {}
    for a in actions:
        for reg in {a.registration, a.new_registration} - {None}:
            last[reg] = max(last.get(reg, a.scheduled_departure), a.scheduled_departure)
    starts = tail_starts(rotations)
    assume(
        all(
            legs[r][0].origin == starts[r] or (legs[r][0].flight_id not in plan and legs[r][0].departure > last[r])
            for r in legs
            if legs[r] and r in last
        )
    )
    assume(
        not any(
            broken_turn(p, leg) and (leg.flight_id in plan or leg.departure <= last.get(r, leg.departure))
            for r in legs
            for p, leg in itertools.pairwise(legs[r])
        )
    )
    fixed = keep_continuous(actions, rotations, TYPES)
    event("repaired" if len(fixed) > len(actions) else "nothing to repair")
    assert breaks(fixed, rotations) == []
    assert {a.flight_id for a in actions} <= {a.flight_id for a in fixed}
    assert all(a in fixed for a in actions)  # the plan's own rows are kept as they were
