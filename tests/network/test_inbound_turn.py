"""Issue 30: a tail's rotation starts at the flight that brings it into the day, not at midnight. A plan that puts a
flight on a tail still flying in (or on the ground less than the type's minimum turn) is refused ROTATION_BROKEN by
the network validation, at the inbound's best-known arrival (its estimate when it runs late); the optimizer is told
the tail cannot fly before then (groups.inbound_outages). Properties over generated inbound arrivals, delays and
swapped departures."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st
from test_continuity import flight, row

from skymarshal.network.continuity import keep_continuous
from skymarshal.network.groups import GroupData, inbound_outages
from skymarshal.network.validation import Checker

MIDNIGHT = datetime(2027, 1, 21, tzinfo=UTC)
TURN = timedelta(minutes=75)  # the B789's minimum turn-round


def _airline(arrives: int, late: int | None, first: int) -> tuple[dict, object, object]:
    """A6-BLA flies in overnight from LHR (lands `arrives` min after midnight, `late` min behind by its estimate) and
    out of AUH `first` min after midnight; A6-BLB flies EY100 AUH-CDG; the inbound leads A6-BLA's rotation."""
    inbound = flight(900, "LHR", "AUH", MIDNIGHT + timedelta(minutes=arrives - 700), "A6-BLA", minutes=700)
    if late is not None:
        inbound = inbound.model_copy(
            update={
                "estimated_departure": inbound.scheduled_departure + timedelta(minutes=late),
                "estimated_arrival": inbound.scheduled_arrival + timedelta(minutes=late),
            }
        )
    own = flight(902, "AUH", "JFK", MIDNIGHT + timedelta(minutes=first), "A6-BLA")
    other = flight(100, "AUH", "CDG", MIDNIGHT + timedelta(hours=2), "A6-BLB")
    return {"A6-BLA": [inbound, own], "A6-BLB": [other]}, inbound, other


def _rotation_findings(rotations, actions) -> list[tuple[str, str, str]]:
    crew = SimpleNamespace(data=SimpleNamespace(handle=None, rotations=rotations))
    return list(Checker(crew, scope=None).rotations(actions))  # type: ignore[arg-type]  # rotations reads no more


@given(
    arrives=st.integers(30, 600),
    late=st.one_of(st.none(), st.integers(0, 240)),
    gap=st.integers(-120, 240),
)
def test_a_flight_swapped_onto_a_tail_still_flying_in_is_refused_until_it_has_turned(arrives, late, gap):
    rotations, inbound, other = _airline(arrives, late, first=arrives + 2000)
    leaves = inbound.arrival + timedelta(minutes=gap)  # the best-known arrival: the estimate when there is one
    swap = row(
        other,
        "tail_swap",
        new_registration="A6-BLA",
        new_departure=leaves,
        new_arrival=leaves + timedelta(minutes=300),
    )
    found = [f for f in _rotation_findings(rotations, [swap]) if f[1] == other.flight_id]
    short = timedelta(minutes=gap) < TURN
    assert bool(found) == short, (found, gap)
    if short:
        assert found[0][0] == "ROTATION_BROKEN" and "A6-BLA" in found[0][2] and inbound.flight_id in found[0][2]


@given(arrives=st.integers(30, 600), late=st.one_of(st.none(), st.integers(0, 240)), first=st.integers(0, 900))
def test_the_optimizer_keeps_a_tail_on_the_ground_until_its_inbound_has_turned(arrives, late, first):
    rotations, inbound, _ = _airline(arrives, late, first=max(first, arrives))
    own = rotations["A6-BLA"][1:]
    group = GroupData(group="B787", fleet=[], rotations={"A6-BLA": own}, bookings=[])
    scope = SimpleNamespace(decision=MIDNIGHT - timedelta(hours=1), affected=own)
    outages = inbound_outages(group, scope, rotations)  # type: ignore[arg-type]  # the two fields it reads
    turned = inbound.arrival + TURN
    if own[0].scheduled_departure >= inbound.arrival:
        turned = min(turned, own[0].scheduled_departure)  # the schedule's own turn is the operator's to publish
    assert [(o.registration, o.end) for o in outages] == [("A6-BLA", turned)]


@given(arrives=st.integers(30, 600), gap=st.integers(-60, 200))
def test_a_repaired_plan_leaves_the_turn_after_the_inbound_intact(arrives, gap):
    """A plan re-timing the tail's first flight of the day onto its inbound: the knock-on repair starts from the
    inbound's arrival, and the validation finds nothing left to refuse on the flights the repair added."""
    rotations, inbound, _ = _airline(arrives, None, first=arrives + 300)
    own = rotations["A6-BLA"][1]
    later = flight(903, "JFK", "AUH", own.scheduled_arrival + TURN, "A6-BLA")
    rotations["A6-BLA"].append(later)
    leaves = inbound.arrival + TURN + timedelta(minutes=gap)
    moved = row(own, "retime", new_departure=leaves, new_arrival=leaves + timedelta(minutes=300))
    fixed = keep_continuous([moved], rotations, {"A6-BLA": "B789", "A6-BLB": "B789"})
    found = _rotation_findings(rotations, fixed)
    assert [f[1] for f in found] == ([own.flight_id] if gap < 0 else []), found
