"""Crewability by the real crew rules (the roster reads faked): a delay that leaves a member short of rest before
their next rostered duty is flown, and a reserve on standby takes that next duty (ORO.FTL.235); with no reserve the
next duty leaves after the minimum rest, its report moved, and only a next duty whose crew can no longer be told
sends the flight back to be re-planned. A duty whose first sector is re-timed while its crew is still at rest reports as
much later (CS FTL.1.205(d)), and the row carries the moved report for execution."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import row_builders

from skymarshal.models.network_plan import FlightAction
from skymarshal.models.operational import CrewDuty, CrewMember, Flight
from skymarshal.network.continuity import flight_row
from skymarshal.network.crew import CrewData, next_duty, verdicts
from skymarshal.network.crewability import make_crewable
from skymarshal.network.plan_roster import plan_times, roster_under
from skymarshal.network.totals import PlanData

DAY = datetime(2027, 1, 22, tzinfo=UTC)


def _flight(n: int, origin: str, destination: str, dep: datetime, reg: str = "A6-EIA") -> Flight:
    return row_builders.flight(
        f"EY{n}", origin, destination, dep, 60, reg, "A320", distance_km=450, capacity={"Y": 136}, booked={}
    )


def _duty(crew_id: str, duty_id: str, flights: list[Flight]) -> list[CrewDuty]:
    """One duty over `flights`: reporting 75 min before the first, released 30 min after the last."""
    report = flights[0].scheduled_departure - timedelta(minutes=75)
    release = flights[-1].scheduled_arrival + timedelta(minutes=30)
    return [
        row_builders.flight_duty(
            crew_id,
            f,
            "CA",
            duty_id=duty_id,
            duty_key=f"{report.isoformat()}#{f.scheduled_departure.isoformat()}#{f.flight_id}",
            block_minutes=60,
            aircraft_type="A320",
            fdp_end=flights[-1].scheduled_arrival,
        ).model_copy(update={"duty_start": report, "duty_end": release})
        for f in flights
    ]


class RosterCrew(CrewData):
    """The roster as rows in memory; the crew rules run for real (CrewData.findings)."""

    def __init__(self, flights: list[Flight], rows: list[CrewDuty], reserves: list[str]):
        rotations: dict[str, list[Flight]] = {}
        for f in flights:
            rotations.setdefault(f.aircraft_registration, []).append(f)
        super().__init__(PlanData(None, {f.flight_id: f for f in flights}, {}, rotations=rotations), DAY)  # type: ignore[arg-type]
        self.rows, self.reserve_ids = rows, reserves

    def assignments(self, flight_id):
        return [r for r in self.rows if r.flight_id == flight_id]

    def members(self, crew_ids):
        return {c: CrewMember(crew_id=c, name=c, rank="CA", base="AUH", type_ratings=["A320"]) for c in crew_ids}

    def history(self, crew_id):
        standby = self.standby("AUH", DAY.date() + timedelta(days=1))
        return [r for r in [*self.rows, *standby] if r.crew_id == crew_id]

    def standby(self, station: str, day: date):
        """The reserves on a night standby from the local day's start (AUH is UTC+4) for 12 h, the 23rd only."""
        if day != DAY.date() + timedelta(days=1):
            return []
        start = datetime(day.year, day.month, day.day, tzinfo=UTC) - timedelta(hours=4)
        return [row_builders.standby_duty(s, station, start, 12, duty_id=f"S-{s}-{day}") for s in self.reserve_ids]


def _retime(f: Flight, minutes: int) -> FlightAction:
    by = timedelta(minutes=minutes)
    return flight_row(
        f,
        "retime",
        "",
        new_departure=f.scheduled_departure + by,
        new_arrival=f.scheduled_arrival + by,
        delay_minutes=minutes,
    )


def _day(reserves: list[str]) -> tuple[RosterCrew, list[Flight]]:
    """C1 flies AUH-BAH-AUH in the morning and, after exactly the 12 h minimum rest at base, the next night's
    first flight (on another tail)."""
    out_, back = (
        _flight(300, "AUH", "BAH", DAY.replace(hour=8)),
        _flight(301, "BAH", "AUH", DAY.replace(hour=9, minute=30)),
    )
    release = back.scheduled_arrival + timedelta(minutes=30)
    night = _flight(302, "AUH", "BAH", release + timedelta(hours=12, minutes=75), "A6-EIB")
    rows = [*_duty("C1", "D1", [out_, back]), *_duty("C1", "D2", [night])]
    return RosterCrew([out_, back, night], rows, reserves), [out_, back, night]


def test_a_member_short_of_rest_before_the_next_duty_flies_and_a_reserve_takes_that_duty():
    crew, (_, back, night) = _day(["S1"])
    actions = [_retime(back, 120)]
    (mine,) = [v for v in verdicts(crew, actions) if v.crew_id == "C1"]
    assert not mine.legal and mine.short_of_rest_only  # the delay eats the next duty's rest, nothing else
    rows, replanned = make_crewable(crew, actions)
    by_id = {a.flight_id: a for a in rows}
    assert by_id[back.flight_id].operates and not replanned
    (change,) = by_id[night.flight_id].crew_changes
    assert (change.replaced, change.reserve) == ("C1", "S1") and "ORO.FTL.235" in change.reason
    following = next_duty(crew, mine, plan_times(rows), {})
    assert following is not None and following.sectors == (night.flight_id,)


def test_without_a_reserve_the_next_duty_leaves_after_the_minimum_rest():
    crew, (_, back, night) = _day([])
    rows, replanned = make_crewable(crew, [_retime(back, 120)])
    by_id = {a.flight_id: a for a in rows}
    assert by_id[back.flight_id].operates and not replanned
    later = by_id[night.flight_id]  # 10 h of rest where 12 h are due: two hours later, the report with it
    assert (later.action, later.delay_minutes) == ("retime", 120) and "ORO.FTL.235" in later.reason
    assert later.moved_reports == {"C1": night.scheduled_departure - timedelta(minutes=75) + timedelta(hours=2)}
    assert all(v.legal for v in verdicts(crew, rows))


def test_a_next_duty_already_called_cannot_move_and_the_flight_is_re_planned():
    crew, (_, back, night) = _day([])
    crew.decision = night.scheduled_departure - timedelta(minutes=90)  # its crew is told before the notice runs out
    rows, replanned = make_crewable(crew, [_retime(back, 120)])
    assert {r.flight_id for r in replanned} >= {back.flight_id}
    assert not next(a for a in rows if a.flight_id == back.flight_id).operates


def test_a_crew_still_at_rest_reports_as_much_later_as_their_first_sector_leaves():
    f = _flight(304, "AUH", "BAH", DAY.replace(hour=14))
    crew = RosterCrew([f], _duty("C2", "D3", [f]), [])
    rows, _ = make_crewable(crew, [_retime(f, 300)])
    (row,) = rows
    rostered = f.scheduled_departure - timedelta(minutes=75)
    assert row.moved_reports == {"C2": rostered + timedelta(minutes=300)}
    (verdict,) = verdicts(crew, rows)
    assert verdict.legal and verdict.proposed is not None and verdict.proposed.report == rostered + timedelta(hours=5)


def test_a_crew_already_called_keeps_the_roster_s_report():
    f = _flight(305, "AUH", "BAH", DAY.replace(hour=1, minute=30))  # reports 00:15Z, inside the call-out notice
    crew = RosterCrew([f], _duty("C3", "D4", [f]), [])
    rows, _ = make_crewable(crew, [_retime(f, 60)])
    assert rows[0].moved_reports == {}
    (verdict,) = verdicts(crew, rows)
    assert verdict.proposed is not None and verdict.proposed.report == f.scheduled_departure - timedelta(minutes=75)


def test_the_roster_under_a_plan_moves_reports_and_ends_drops_released_duties_and_keeps_the_rest():
    crew, (out_, back, night) = _day([])
    rows = crew.history("C1")
    times = {
        back.flight_id: (back.scheduled_departure + timedelta(hours=2), back.scheduled_arrival + timedelta(hours=2))
    }
    times[night.flight_id] = (
        night.scheduled_departure + timedelta(hours=1),
        night.scheduled_arrival + timedelta(hours=1),
    )
    under = {r.flight_id: r for r in roster_under(rows, times, crew.decision + timedelta(hours=1))}
    d1 = under[out_.flight_id]  # its first sector keeps its time: the report stays, the end follows EY301
    assert d1.duty_start == rows[0].duty_start and d1.fdp_end == back.scheduled_arrival + timedelta(hours=2)
    assert d1.duty_end == d1.fdp_end + timedelta(minutes=30)
    d2 = under[night.flight_id]  # re-timed while at rest: reports an hour later
    assert d2.duty_start == night.scheduled_departure - timedelta(minutes=75) + timedelta(hours=1)
    assert [r for r in roster_under(rows, times, crew.decision, frozenset({"D2"})) if r.duty_id == "D2"] == []
    assert roster_under(rows, {}, crew.decision) == rows
