"""A crew held mid-duty away from base (an out-and-back's return, the outbound flown) can wait for its minimum rest
where the flight leaves (ORO.FTL.235(b): 10 h away from base, or the preceding duty if longer): the crew stands down
once the outbound has landed and its post-flight duties are done, and the return is a new duty from that station —
where before a rest was only offered on a duty's first sector, and the rotation was cancelled (the decision bench's
Kathmandu hold: the AUH-KTM-AUH crew 30 minutes over its FDP, no reserve at KTM)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from test_what_if_plans import _decide, considered

from skymarshal.arbitration.actions import RestCrew
from skymarshal.data import queries as q
from skymarshal.rules.ftl_easa_limits import MIN_REST_ORO_FTL_235

REPORTS = (
    "EY340 from Kathmandu on 19 Jan is holding at the gate for reasons the station has not given yet, they say an hour",
    "EY340 19JAN KTM: ground handling strike, departure held 3 hours",
)


@pytest.mark.parametrize("report", REPORTS)
def test_a_crew_held_mid_duty_at_an_outstation_gets_a_wait_for_its_rest_there(account, report):
    handle = account.handle()
    flight, _, _, decision = _decide(handle, report)
    plans = [s for s in considered(decision) if s.scenario_id.endswith(":rested")]
    assert plans, [s.scenario_id for s in considered(decision)]
    for plan in plans:
        (rest,) = [a for a in plan.actions if isinstance(a, RestCrew) and a.flight_id == flight.flight_id]
        for crew_id, report_at in rest.reports.items():
            rows = q.duty_history(handle, crew_id, flight.scheduled_departure - timedelta(days=2), flight.arrival)
            seat = next(r for r in rows if r.flight_id == flight.flight_id)
            earlier = [
                x
                for x in rows
                if x.duty_id == seat.duty_id
                and x.flight_id != flight.flight_id
                and x.kind == "FLIGHT"
                and x.sector_departure
                and x.sector_departure < flight.scheduled_departure
            ]
            assert earlier, "the case is a mid-duty return: the outbound is in the same duty"
            landed = max(x.sector_arrival for x in earlier if x.sector_arrival)
            assert rest.stood_down_at >= landed  # they stand down once the outbound is on the ground
            assert report_at - rest.stood_down_at >= timedelta(minutes=MIN_REST_ORO_FTL_235["away"])
            assert plan.departure is not None and plan.departure > report_at
        # the re-timed return itself is legal for every member; only the chain after it may be refused
        rejected = next((v for v in decision.rejected if v.scenario.scenario_id == plan.scenario_id), None)
        assert rejected is None or {r.code for r in rejected.rejections} <= {"CREW_CHAIN_BROKEN"}, rejected
