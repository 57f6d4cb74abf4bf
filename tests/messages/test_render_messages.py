"""`analyze` at approval prints what each plan will send: the messages as sent, the crew, passengers and stations."""

from __future__ import annotations

import pytest
from test_plan_messages import delay, duty, flight, scenario

from skymarshal.arbitration.actions import CancelFlight, RebookPassengers
from skymarshal.cli.render_messages import SHOWN_MESSAGES, render_messages
from skymarshal.messages.build import PlanFacts, plan_messages

pytestmark = pytest.mark.unit


def test_the_approval_prints_each_plans_messages_and_whom_it_tells(capsys):
    flights = [flight(n, 6 + n) for n in range(1, 8)]
    f1, f2 = flights[0], flights[1]
    plan = scenario(
        [
            CancelFlight(flight_id=f1.flight_id, reason="no aircraft"),
            RebookPassengers(flight_id=f1.flight_id, passengers=220, onto={f2.flight_id: 20}, interline=200),
            *(delay(f, 40 + 5 * n) for n, f in enumerate(flights[1:])),
        ]
    )
    facts = PlanFacts(
        {f.flight_id: f for f in flights}, {f1.flight_id: [duty("C1", f1)], f2.flight_id: [duty("C2", f2)]}
    )
    render_messages([plan_messages(plan, facts)])
    out = capsys.readouterr().out
    assert "#1 [test] will send 7 message(s) (1 CNL, 6 ED); tell 2 crew, 2 station(s), 1540 passenger(s)" in out
    assert "ASM EY1 (cancelled): ASM / UTC / CNL ROTA / EY1/20JAN27" in out
    assert f"... and {7 - SHOWN_MESSAGES} more" in out
    assert "crew: 1 delayed, 1 released" in out and "passengers: 1320 delayed, 200 interline, 20 rebooked" in out
