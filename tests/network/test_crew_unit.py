"""Crewability without AWS: rostered crew the rules find illegal get legal standby reserves, never one reserve twice
in a plan; a flight left without legal crew is cancelled with what its tail then cannot fly, and the change recorded.
The roster reads are faked; the crew rules' answers are scripted (illegal rostered members, legal reserves)."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta

import row_builders
from hypothesis import given, settings
from hypothesis import strategies as st

from skymarshal.models.findings import Finding
from skymarshal.models.network_plan import FlightAction
from skymarshal.models.operational import CrewDuty, CrewMember, Flight
from skymarshal.network.crew import CrewData
from skymarshal.network.crewability import make_crewable
from skymarshal.network.ferry import positioning_row
from skymarshal.network.totals import PlanData

DAY = datetime(2027, 1, 22, tzinfo=UTC)


def _flight(i: int, outbound: bool) -> Flight:
    dep = DAY.replace(hour=8) + timedelta(hours=3 * (i // 2), minutes=90 * (i % 2))
    return row_builders.flight(
        f"EY{300 + i}",
        "AUH" if outbound else "BAH",
        "BAH" if outbound else "AUH",
        dep,
        60,
        f"A6-EI{chr(65 + i // 2)}",
        "A320",
        distance_km=450,
        capacity={"Y": 136},
        booked={},
        flight_id=f"EY{300 + i}-20270122",
    )


class FakeCrew(CrewData):
    """One captain per flight on a one-sector duty; `illegal` of them fail the rules; `reserves` on standby at AUH."""

    def __init__(self, flights: list[Flight], illegal: set[str], reserves: int):
        rotations: dict[str, list[Flight]] = {}
        for f in flights:
            rotations.setdefault(f.aircraft_registration, []).append(f)
        super().__init__(PlanData(None, {f.flight_id: f for f in flights}, {}, rotations=rotations), DAY)  # type: ignore[arg-type]
        self.rows = {f.flight_id: self._row(f"C{f.flight_number}", f) for f in flights}
        self.illegal = illegal
        self.reserve_ids = [f"S{i:02d}" for i in range(reserves)]

    @staticmethod
    def _row(crew_id: str, f: Flight) -> CrewDuty:
        return row_builders.flight_duty(
            crew_id,
            f,
            duty_key=f"{f.scheduled_departure:%Y%m%d%H%M}#{f.flight_id}",
            fdp_end=f.scheduled_arrival,
            block_minutes=60,
            aircraft_type="A320",
        )

    def assignments(self, flight_id):
        return [self.rows[flight_id]]

    def members(self, crew_ids):
        return {c: CrewMember(crew_id=c, name=c, rank="CPT", base="AUH", type_ratings=["A320"]) for c in crew_ids}

    def history(self, crew_id):
        return [r for r in self.rows.values() if r.crew_id == crew_id]

    def standby(self, station, day):
        start = datetime.combine(day, time(), tzinfo=UTC)
        return [
            row_builders.standby_duty(
                s,
                station,
                start,
                24,
                duty_key=f"{day}#STANDBY",
                duty_id=f"S-{s}-{day}",
                standby_base_date=f"{station}#{day}",
            )
            for s in self.reserve_ids
        ]

    def findings(self, member, proposed, report=None, times=None, released=frozenset()):
        bad = member.crew_id in self.illegal and report is None
        return (
            Finding(
                rule="crew.max_fdp",
                clause="ORO.FTL.205(b)(1)",
                status="illegal" if bad else "legal",
                binding=bad,
                subject=member.crew_id,
                message="over" if bad else "within",
            ),
        )


def _action(f: Flight) -> FlightAction:
    return FlightAction(
        flight_id=f.flight_id,
        flight_number=f.flight_number,
        origin=f.origin,
        destination=f.destination,
        action="retime",
        scheduled_departure=f.scheduled_departure,
        scheduled_arrival=f.scheduled_arrival,
        new_departure=f.scheduled_departure + timedelta(minutes=30),
        new_arrival=f.scheduled_arrival + timedelta(minutes=30),
        delay_minutes=30,
        registration=f.aircraft_registration,
        new_registration=f.aircraft_registration,
        aircraft_type="A320",
    )


@settings(max_examples=40, deadline=None)
@given(pairs=st.integers(1, 4), reserves=st.integers(0, 6), data=st.data())
def test_reserves_are_never_called_twice_and_uncrewable_rotations_are_cancelled(pairs, reserves, data):
    flights = [_flight(i, outbound=i % 2 == 0) for i in range(2 * pairs)]
    illegal = set(data.draw(st.lists(st.sampled_from([f"C{f.flight_number}" for f in flights]), unique=True)))
    crew = FakeCrew(flights, illegal, reserves)
    actions, replanned = make_crewable(crew, [_action(f) for f in flights])
    called = [c.reserve for a in actions for c in a.crew_changes]
    assert len(called) == len(set(called)) <= reserves
    by_id = {a.flight_id: a for a in actions}
    for f in flights:
        a = by_id[f.flight_id]
        if a.operates and f"C{f.flight_number}" in illegal:
            assert [c.replaced for c in a.crew_changes] == [f"C{f.flight_number}"]  # crewed by a reserve
    cancelled = {a.flight_id for a in actions if not a.operates}
    assert cancelled == {r.flight_id for r in replanned}  # every re-plan is recorded
    for i in range(0, len(flights), 2):  # a cancelled outbound strands its return: both go
        assert (flights[i].flight_id in cancelled) <= (flights[i + 1].flight_id in cancelled)
    if len(illegal) <= reserves:
        assert not cancelled


def test_a_ferry_no_legal_crew_can_fly_leaves_the_plan_instead_of_being_cancelled():
    """A positioning ferry is no flight of the schedule: not flown, it is no cancellation to announce or execute
    (its row would name a flight the tables do not have); the re-plan says why it went."""
    crew = FakeCrew([_flight(0, outbound=True)], set(), reserves=0)  # nobody on standby: no ferry crew anywhere
    ferry = positioning_row("A6-EIZ", "AUH", "BAH", DAY.replace(hour=5), DAY.replace(hour=6), "EY", "A320")
    actions, replanned = make_crewable(crew, [ferry])
    assert actions == []  # gone, not a row that cancels it
    assert [(r.flight_id, r.reason) for r in replanned] == [
        (ferry.flight_id, "no legal CPT on standby at AUH for the ferry")
    ]
