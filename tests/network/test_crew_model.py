"""The network planner's optimizer with crews as resources (issue 47): the in-scope flights' rostered crews become
the group instance's pairings, read once through the crewability's own roster reads."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import row_builders

from skymarshal.models.operational import AircraftDay, CrewMember
from skymarshal.network.crew_model import CrewModel
from skymarshal.recovery.adapter import NetworkSnapshot, to_instance
from skymarshal.recovery.solver import NoFeasibleSolution, solve
from skymarshal.rules.crew import latest_legal_delay
from skymarshal.rules.rostered import rostered_duty

DAY = datetime(2027, 1, 22, tzinfo=UTC)
OUT = row_builders.flight("EY1", "AUH", "MCT", DAY.replace(hour=10), 90, "A6-EIA", "A320", flight_id="F1")
BACK = row_builders.flight("EY2", "MCT", "AUH", DAY.replace(hour=12), 90, "A6-EIA", "A320", flight_id="F2")


def duty(crew_id: str):
    first = row_builders.flight_duty(crew_id, OUT, duty_id=f"D-{crew_id}", aircraft_type="A320", block_minutes=90)
    second = row_builders.flight_duty(crew_id, BACK, duty_id=f"D-{crew_id}", aircraft_type="A320", block_minutes=90)
    return [
        first.model_copy(update={"duty_end": second.duty_end}),
        second.model_copy(update={"duty_start": first.duty_start}),
    ]


class FakeCrew:
    """CrewData's three reads, counted."""

    def __init__(self):
        self.rows = {"C1": duty("C1"), "C2": duty("C2")}
        self.reads = 0

    def assignments(self, flight_id):
        self.reads += 1
        return [r for rows in self.rows.values() for r in rows if r.flight_id == flight_id]

    def members(self, ids):
        return {c: CrewMember(crew_id=c, name=c, rank="CA", base="AUH", type_ratings=["A320"]) for c in ids}

    def history(self, crew_id):
        return self.rows[crew_id]


def adapted(delay: int = 0):
    fleet = [
        AircraftDay(
            aircraft_registration="A6-EIA",
            date=DAY.date(),
            aircraft_type="A320",
            status="IN_SERVICE",
            station="AUH",
            capacity={"J": 8, "Y": 128},
        )
    ]
    snapshot = NetworkSnapshot(
        window_start=DAY.replace(hour=6),
        window_end=DAY + timedelta(days=1, hours=6),
        aircraft=fleet,
        flights=[OUT, BACK],
        bookings=[],
        disrupted_flight_id=None,
        disrupted_release=DAY.replace(hour=6),
        imposed_delays={"F1": delay} if delay else {},
    )
    return to_instance(snapshot)


def test_the_in_scope_flights_crews_are_the_groups_pairings_read_once():
    crew = FakeCrew()
    model = CrewModel(crew, {"F1", "F2"})  # type: ignore[arg-type]
    instance = model.instance("A320", adapted())
    (pairing,) = instance.crews  # C1 and C2 fly the same two legs: one pairing
    assert [ref.number for ref in pairing.legs] == [1, 2] and pairing.start_airport == "AUH"
    member = crew.members(["C1"])["C1"]
    expected = latest_legal_delay(member, crew.rows["C1"], rostered_duty(crew.rows["C1"], "F1"), horizon_minutes=720)
    assert pairing.slack == (expected, expected)
    reads = crew.reads
    again = model.instance("A320", adapted())  # another objective's instance of the same group
    assert again.crews == instance.crews and crew.reads == reads
    assert [ref.number for ref in CrewModel(FakeCrew(), {"F1"}).instance("A320", adapted()).crews[0].legs] == [1]  # type: ignore[arg-type]


def test_a_hold_past_the_crews_duty_is_never_hidden():
    """A flight held past what its crew's duty allows (an imposed delay the plan cannot change): the optimizer
    finds no crew-legal plan and says which duty and why, never returning the plan as feasible."""
    crew = FakeCrew()
    slack = CrewModel(crew, {"F1", "F2"}).instance("A320", adapted()).crews[0].slack[0]  # type: ignore[arg-type]
    held = CrewModel(crew, {"F1", "F2"}).instance("A320", adapted(delay=slack + 30))  # type: ignore[arg-type]
    try:
        _, result = solve(held, 0.3)
    except NoFeasibleSolution as refused:
        assert "Crew pairing D-C1+1" in str(refused) and f"legal to {slack} min" in str(refused)
        return
    assert not result.feasible and any(v.kind == "crew_duty" for v in result.violations)
