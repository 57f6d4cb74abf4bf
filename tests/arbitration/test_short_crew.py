"""Issue 46 item 4: a cabin crew member unavailable away from base — the flight operates with the cabin crew left when
they meet the certified minimum (EASA ORO.CC.100(b), ORO.CC.200), refused with its reason when they do not; the plan
stands the member down, and executing it releases their sectors and nothing else of the roster."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from test_what_if_plans import _decide, considered

from skymarshal.arbitration.actions import StandDownCrew
from skymarshal.arbitration.crew import short
from skymarshal.arbitration.crew.cabin_minimum import certified_minimum
from skymarshal.data import queries as q
from skymarshal.models.fleet import AIRCRAFT_TYPES
from skymarshal.models.operational import CABIN_RANKS

SICK_CABIN = (
    "EY124 on 21 January 2027: a cabin attendant is sick and has been stood down",
    "EY124/21JAN27 FRA-AUH C/A UNWELL, STOOD DOWN. DLA 155.",
    "One of the cabin crew of EY124 on 21 January 2027 reported sick at the hotel and cannot operate",
)


def _short(decision):
    return [s for s in considered(decision) if s.crew_stood_down]


@pytest.mark.parametrize("report", SICK_CABIN)
def test_a_sick_cabin_attendant_gets_a_plan_flying_without_them_at_or_above_the_minimum(account, report):
    flight, facts, _, decision = _decide(account.handle(), report)
    (sick,) = [str(f.value) for f in facts.facts if f.name == "crew_unavailable" and f.source == "data"]
    (plan,) = _short(decision)
    (stand_down,) = [a for a in plan.actions if isinstance(a, StandDownCrew)]
    assert stand_down.crew_ids == [sick] == plan.crew_stood_down
    seats = AIRCRAFT_TYPES[flight.aircraft_type].seats
    assert stand_down.minimum == certified_minimum([seats])
    assert stand_down.cabin_left == _cabin_rostered(account, flight) - 1
    ranked = {r.scenario.scenario_id for r in decision.ranked}
    if stand_down.cabin_left >= stand_down.minimum:
        assert plan.scenario_id in ranked  # legal: considered among the valid plans
        assert plan.departure is not None and plan.departure >= flight.scheduled_departure
    else:
        (refused,) = [v for v in decision.rejected if v.scenario.scenario_id == plan.scenario_id]
        assert "CREW_ILLEGAL" in {r.code for r in refused.rejections}


def test_the_minimum_is_refused_with_its_reason_when_too_few_are_left(account, monkeypatch):
    """The same report on a cabin rostered at exactly the minimum: the plan is shown, refused on ORO.CC.100."""
    flight, *_ = _decide(account.handle(), SICK_CABIN[0])
    cabin = _cabin_rostered(account, flight)
    monkeypatch.setattr(short, "operate_with", _with_minimum(cabin))  # everyone rostered is needed
    _, _, _, decision = _decide(account.handle(), SICK_CABIN[0])
    (plan,) = _short(decision)
    (refused,) = [v for v in decision.rejected if v.scenario.scenario_id == plan.scenario_id]
    assert [r.code for r in refused.rejections if "cabin" in r.message] == ["CREW_ILLEGAL"]
    assert all(r.scenario.scenario_id != plan.scenario_id for r in decision.ranked)


def _cabin_rostered(account, flight) -> int:
    """The flight's rostered cabin crew, cabin director included (by the members' ranks)."""
    handle = account.handle()
    ids = sorted({a.crew_id for a in q.crew_assignments(handle, flight.flight_id)})
    return sum(m.rank in CABIN_RANKS for m in q.crew_members(handle, ids))


def _with_minimum(minimum: int):
    from skymarshal.arbitration.crew.cabin_minimum import CabinMinimum

    def operate_with(aircraft_type: str, left: int, senior_qualified: int) -> CabinMinimum:
        return CabinMinimum(
            code="BELOW_MINIMUM" if left < minimum else "MEETS_MINIMUM",
            operable=left >= minimum,
            left=left,
            minimum=minimum,
            message=f"{left} cabin crew left, {minimum} required (ORO.CC.100(b))",
        )

    return operate_with


def test_no_plan_stands_anyone_down_when_no_cabin_crew_member_is_unavailable(account):
    _, _, _, decision = _decide(account.handle(), "EY124 on 21 January 2027 is delayed 2 hours waiting for fuel")
    assert not _short(decision)


def test_every_later_sector_of_the_stood_down_members_duty_is_checked_at_the_minimum(account):
    """Execute releases the member's later sectors of the duty too: each is checked with the cabin crew left on it."""
    handle = account.handle()
    report, later = _a_duty_that_continues(handle)
    flight, _, _, decision = _decide(handle, report)
    (plan,) = _short(decision)
    checks = [c for c in _checks(decision, plan.scenario_id) if c.constraint == "cabin crew minimum"]
    assert [c.subject for c in checks] == [flight.flight_id, *later]
    assert all(c.clause for c in checks)


def _checks(decision, scenario_id):
    for r in decision.ranked:
        if r.scenario.scenario_id == scenario_id:
            return r.compliance
    (refused,) = [v for v in decision.rejected if v.scenario.scenario_id == scenario_id]
    return refused.checks


def _a_duty_that_continues(handle) -> tuple[str, list[str]]:
    """A report on a hub departure of 21 January whose first cabin attendant's duty has later sectors, and the ids of
    those sectors (found in the data, not planted)."""
    start = datetime(2027, 1, 21, 4, tzinfo=UTC)
    departures = [
        f for f in q.flights_at_airport(handle, "AUH", start, start + timedelta(hours=8)) if f.origin == "AUH"
    ]
    for flight in sorted(departures, key=lambda f: (f.scheduled_departure, f.flight_id)):
        attendants = sorted(
            (d for d in q.crew_assignments(handle, flight.flight_id) if d.position == "CA"), key=lambda d: d.crew_id
        )
        if not attendants:
            continue
        first = attendants[0]
        since = first.sector_departure or first.duty_start
        rows = q.duty_history(handle, first.crew_id, since - timedelta(days=1), since + timedelta(days=1))
        later = [
            r.flight_id
            for r in sorted(rows, key=lambda r: r.sector_departure or r.duty_start)
            if r.duty_id == first.duty_id and r.kind == "FLIGHT" and (r.sector_departure or r.duty_start) > since
        ]
        if later:
            return f"{flight.flight_number} on 21 January 2027: a cabin attendant reported sick", later
    pytest.fail("no hub departure on 21 January has a cabin attendant whose duty continues")
