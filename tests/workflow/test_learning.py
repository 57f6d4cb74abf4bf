"""The Learn step's DisruptionRecord: what the duty manager did and how it went, written once, and read back by
the arbitrator's precedent query."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from reported import EY123

from skymarshal.arbitration.actions import CancelFlight, DelayFlight, SwapAircraft
from skymarshal.arbitration.models import ArbitratorOutput, RankedScenario, Scenario, Sensitivity
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.data.access import DataHandle
from skymarshal.data.loader import upsert
from skymarshal.intake.disruption_facts import report_disruption
from skymarshal.models.disruption import history_type
from skymarshal.models.operational import AircraftDay, Flight
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.execution.records import ExecutionReport
from skymarshal.workflow.learning.learn import NothingToLearn, learning_record, record_learning, run_answer
from skymarshal.workflow.models import ApprovalDecision, RunSavedBeforeFacts, ValidatedRequest
from skymarshal.workflow.tables import WorkflowTables

AT = datetime(2027, 1, 20, 8, 5, tzinfo=UTC)
DEP = EY123.scheduled_departure
FLIGHT = EY123
PROMPT = "Flight EY123 on January 20th had a mechanical failure"


def _scenario(sid: str, kind: str, actions, delay: int, cost: float) -> Scenario:
    return Scenario(
        scenario_id=sid,
        kind=kind,
        title=f"plan {sid}",
        sources=["generator"],
        actions=actions,
        operates=kind != "cancel",
        registration=None,
        aircraft_type=None,
        departure=None,
        arrival=None,
        arrival_airport="FRA",
        delay_minutes=delay,
        arrival_delay_minutes=delay + 5,
        passengers_impacted=89,
        cost_usd=cost,
    )


SWAP = _scenario(
    "tail_swap:A6-BLT",
    "tail_swap",
    [
        SwapAircraft(
            flight_id=FLIGHT.flight_id, from_registration="A6-BLQ", to_registration="A6-BLT", to_aircraft_type="B789"
        )
    ],
    45,
    21000.5,
)
DELAY = _scenario(
    "delay:240",
    "delay",
    [
        DelayFlight(
            flight_id=FLIGHT.flight_id,
            delay_minutes=240,
            new_departure=DEP + timedelta(minutes=240),
            new_arrival=DEP + timedelta(minutes=620),
        )
    ],
    240,
    64000.0,
)
CANCEL = _scenario(
    "cancel", "cancel", [CancelFlight(flight_id=FLIGHT.flight_id, reason="mechanical disruption")], 600, 99000.0
)
QUIET = Sensitivity(delay_plus_30="-", delay_minus_30="-", one_spare_fewer="-", one_reserve_more="-")


def decision(*scenarios: Scenario) -> ArbitratorOutput:
    ranked = [
        RankedScenario(
            rank=i + 1,
            scenario=sc,
            score=1 - i / 10,
            criteria={},
            confidence=0.8,
            rationale="r",
            pros=[],
            cons=[],
            compliance=[],
            precedent="p",
            sensitivity=QUIET,
        )
        for i, sc in enumerate(scenarios)
    ]
    return ArbitratorOutput(
        final_decision=scenarios[0].title,
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification="j",
        reasoning="r",
        confidence=0.8,
        status="decided",
        flight_id=FLIGHT.flight_id,
        ranked=ranked,
    )


def report(status: str | None, flight_before: Flight | None = None) -> ExecutionReport | None:
    if status is None:
        return None
    failed = status != "executed"
    return ExecutionReport(
        execution_id="run-1",
        scenario_id="any",
        status=status,
        actions=["a"],
        groups=1,
        error="flights EY123 changed" if failed else None,
        reason_code="CONDITION_FAILED" if failed else None,
        flight_before=flight_before,
    )


def record(action: str, chosen: str | None, status: str | None, **kwargs):
    args = dict(
        execution_id="run-1",
        disruption_type="mechanical",
        decision=decision(SWAP, DELAY, CANCEL),
        chosen_scenario_id=chosen,
        decided_by=None if action in ("timeout", "escalated") else "Dana Duty",
        approval_action=action,
        report=report(status),
        occurred_at=AT,
        flight=FLIGHT,
    )
    return learning_record(**{**args, **kwargs})


@pytest.mark.parametrize(
    "action, chosen, status, overridden, outcome, chosen_kind",
    [
        ("approve", "tail_swap:A6-BLT", "executed", False, "on_plan", "tail_swap"),
        ("approve", None, "executed", False, "on_plan", "tail_swap"),  # approve without an id is rank 1
        ("select", "tail_swap:A6-BLT", "executed", False, "on_plan", "tail_swap"),  # selecting rank 1 agrees with it
        ("select", "delay:240", "executed", True, "on_plan", "delay"),
        ("select", "cancel", "rolled_back", True, "failed", "cancel"),
        ("approve", "tail_swap:A6-BLT", "compensation_failed", False, "failed", "tail_swap"),
        ("approve", "tail_swap:A6-BLT", None, False, "failed", "tail_swap"),  # Execute left no report
        ("reject", None, None, True, "not_executed", "tail_swap"),
        ("timeout", None, None, False, "not_executed", "tail_swap"),
        ("escalated", None, None, False, "not_executed", "tail_swap"),
    ],
)
def test_override_flag_outcome_and_chosen_action(action, chosen, status, overridden, outcome, chosen_kind):
    rec = record(action, chosen, status)
    assert (rec.overridden, rec.outcome, rec.chosen_action, rec.recommended_action) == (
        overridden,
        outcome,
        chosen_kind,
        "tail_swap",
    )
    assert rec.disruption_id == "SM-run-1" and rec.scenario_ids == ["tail_swap:A6-BLT", "delay:240", "cancel"]
    assert rec.disruption_type == "mechanical" and rec.initial_delay_minutes == 35
    executed = outcome == "on_plan"
    assert rec.cost_usd == ({"tail_swap": 21000.5, "delay": 64000.0}[chosen_kind] if executed else 0.0)
    assert rec.actual_delay_minutes == ({"tail_swap": 50, "delay": 245}[chosen_kind] if executed else 35)
    if chosen is None and action != "approve":
        assert "nothing was chosen, recorded as the recommended tail_swap" in rec.summary


@pytest.mark.parametrize(
    "report, filed",
    [
        # the words name fog and the crew, but the cause is the sick captain (64) and the hydraulic leak (41)
        ("Captain called in sick, fog expected", "crew"),
        ("hydraulic leak found by the crew", "mechanical"),
        ("EY123: storm at Abu Dhabi, crosswinds above limits", "weather"),
    ],
)
def test_a_history_record_is_filed_under_the_disruption_codes_type_as_the_arbitrator_searches(report, filed):
    disruption = report_disruption(report, FLIGHT)
    request = ValidatedRequest(
        disruption_id="run-1",
        execution_name="run-1",
        prompt=report,
        source="test",
        requested_by=None,
        reported_at=AT,
        flight_number=FLIGHT.flight_number,
        flight_date=FLIGHT.flight_date.isoformat(),
        flight_id=FLIGHT.flight_id,
        description=disruption.cause,
        agents=[],
        approval_timeout_seconds=60,
        disruption=disruption,
    )
    approval = ApprovalDecision(action="approve", decided_by="Dana Duty")
    answer = run_answer(request, approval, None, None, None)
    rec = learning_record(decision=decision(SWAP, DELAY, CANCEL), flight=FLIGHT, **answer)
    assert rec.disruption_type == filed == history_type(disruption.iata_delay_code)


def test_a_run_saved_before_its_report_was_read_into_facts_is_refused_with_one_line():
    with pytest.raises(RunSavedBeforeFacts, match=r"^run run-1 was saved before .* start it again from its report"):
        ValidatedRequest.model_validate({"disruption_id": "run-1", "prompt": PROMPT})


def test_the_flight_as_execution_found_it_is_recorded_not_the_changed_row():
    changed = FLIGHT.model_copy(update={"aircraft_type": "A35K", "delay_minutes": 240, "updated_by_execution": "run-1"})
    rec = record("approve", None, None, report=report("executed", flight_before=FLIGHT), flight=changed)
    assert (rec.aircraft_type, rec.initial_delay_minutes) == ("B789", 35)


def test_no_plan_unknown_choice_or_unknown_flight_is_refused_with_a_reason():
    empty = decision(SWAP).model_copy(update={"ranked": []})
    with pytest.raises(NothingToLearn, match="ranked no plan"):
        record("approve", None, None, decision=empty)
    with pytest.raises(NothingToLearn, match="not one of the ranked plans"):
        record("select", "divert:MAN", "executed")
    with pytest.raises(NothingToLearn, match="route and aircraft type"):
        record("reject", None, None, flight=None)


def test_a_retried_learn_step_writes_once_and_the_arbitrator_reads_it_back(blank_account):
    resource, naming = blank_account.resource(), blank_account.naming
    rec = record("select", "delay:240", "executed", decision=decision(SWAP, DELAY, CANCEL).model_dump(mode="json"))
    assert record_learning(rec, tables=WorkflowTables(resource, naming)) is True
    retry = rec.model_copy(update={"summary": "a retried step must not overwrite the record"})
    assert record_learning(retry, tables=WorkflowTables(resource, naming)) is False
    handle = DataHandle(naming=naming, resource=resource)
    found = q.past_disruptions(handle, "mechanical", since=AT - timedelta(days=1))
    assert found == [rec]


def test_ids_never_collide_with_the_seeded_history(airline):
    seeded = [r.disruption_id for r in airline.tables[s.DISRUPTION_HISTORY]]
    assert seeded and all(i.startswith("H-") for i in seeded)
    assert not record("approve", None, "executed").disruption_id.startswith("H-")


def test_learning_from_a_real_execution_records_the_original_aircraft(blank_account):
    resource, naming = blank_account.resource(), blank_account.naming
    b777 = FLIGHT.model_copy(update={"aircraft_type": "B77W"})
    upsert(resource, naming, s.FLIGHTS, [b777])
    upsert(
        resource,
        naming,
        s.AIRCRAFT_AVAILABILITY,
        [
            AircraftDay(
                aircraft_registration="A6-BLT",
                date=DEP.date(),
                aircraft_type="B789",
                status="SPARE",
                station="AUH",
                capacity={"J": 28, "Y": 271},
            )
        ],
    )
    done = execute(SWAP, execution_id="run-real", tables=WorkflowTables(resource, naming))
    handle = DataHandle(naming=naming, resource=resource)
    after = q.get_flight(handle, FLIGHT.flight_id)
    assert done.status == "executed" and after.aircraft_type == "B789"
    rec = learning_record(
        execution_id="run-real",
        disruption_type="mechanical",
        decision=decision(SWAP, DELAY),
        chosen_scenario_id=SWAP.scenario_id,
        decided_by="Dana Duty",
        approval_action="approve",
        report=done,
        occurred_at=AT,
        flight=after,
    )
    assert rec.aircraft_type == "B77W" and rec.outcome == "on_plan" and "executed as planned" in rec.summary
