"""Crew continuity after execution (issue 30 item 2): the roster moves with an executed delay, a reserve takes the
flight at its times, a swap onto a type with a larger cabin complement rosters the crew it adds, and a delay that
leaves a crew member short of rest before their next duty re-crews that duty — each leaving every crew chain legal
by the library's check; a plan without the re-crew is rejected, CREW_CHAIN_BROKEN naming the duty."""

from __future__ import annotations

from execution_helpers import plan
from integrity_helpers import assert_intact
from reported import reported

from skymarshal.arbitration.actions import AddCabinCrew, ReassignCrew
from skymarshal.arbitration.context import load_context
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.data import queries as q
from skymarshal.models.agent_response import AgentResponse
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.steps.rounds import run_rounds
from skymarshal.workflow.tables import WorkflowTables

WEATHER = "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits"


def _ranked(decisions, situation: str, scenario_id: str):
    considered = [r.scenario for r in decisions[situation].ranked] + [v.scenario for v in decisions[situation].rejected]
    return next(s for s in considered if s.scenario_id == scenario_id)


def _run(account, restore, scenario, name: str):
    restore.append(name)
    report = execute(scenario, execution_id=name, tables=WorkflowTables(account.resource(), account.naming))
    assert report.status == "executed", report.error
    return account.handle()


def test_reserves_take_the_late_flight_at_its_times(decisions, account, restore):
    crew_swap = plan(decisions, "crew", "crew_swap")
    handle = _run(account, restore, crew_swap, "chain-crew")
    flight = q.get_flight(handle, "EY101-20270121")
    seats = q.crew_assignments(handle, flight.flight_id)
    assert {s.crew_id for s in seats} == set(crew_swap.crew_replacements.values())
    assert {s.sector_departure for s in seats} == {flight.departure}
    assert_intact(handle, crew_swap)


def test_a_delay_moves_its_crew_and_re_crews_the_next_duty_it_makes_illegal(decisions, account, restore):
    delayed = _ranked(decisions, "weather", "crew_swap:265")
    recrew = [a for a in delayed.actions if isinstance(a, ReassignCrew) and a.flight_id != "EY11-20270122"]
    assert recrew, "the knock-on on EY12 leaves a member short of rest before a later duty"
    handle = _run(account, restore, delayed, "chain-weather")
    ey12 = q.get_flight(handle, "EY12-20270122")
    assert {s.sector_departure for s in q.crew_assignments(handle, ey12.flight_id)} == {ey12.departure}
    later = {s.crew_id for a in recrew for s in q.crew_assignments(handle, a.flight_id)}
    assert all(new in later and old not in later for a in recrew for old, new in a.replacements.items())
    assert_intact(handle, delayed)


def test_the_same_delay_without_the_re_crew_is_rejected_naming_the_duty(decisions, account):
    delayed = _ranked(decisions, "weather", "crew_swap:265")
    recrewed = {a.flight_id for a in delayed.actions if isinstance(a, ReassignCrew) and a.flight_id != "EY11-20270122"}
    stripped = delayed.model_copy(
        update={
            "actions": [a for a in delayed.actions if not (isinstance(a, ReassignCrew) and a.flight_id in recrewed)]
        }
    )
    handle = account.handle()
    collation = {a: AgentResponse.model_validate(r) for a, r in run_rounds(WEATHER, handle=handle, llm=None)[1].items()}
    flight = q.get_flight(handle, "EY11-20270122")
    assert flight is not None
    ctx = load_context(WEATHER, flight, collation, handle, None, reported(handle, WEATHER))  # type: ignore[arg-type]
    result = validate(ctx, stripped)
    broken = [r for r in result.rejections if r.code == "CREW_CHAIN_BROKEN"]
    assert broken and all(any(f in r.message for f in recrewed) for r in broken), result.rejections
    assert validate(ctx, delayed).valid or not any(
        r.code == "CREW_CHAIN_BROKEN" for r in validate(ctx, delayed).rejections
    )


def test_a_swap_onto_a_larger_cabin_complement_rosters_the_crew_it_adds(decisions, account, restore):
    """EY123's cabin crew do not fly EY124 (another crew does, after its layover): the member added at Abu Dhabi
    flies EY123 with them, and the swap is refused for EY124's complement, which no standby at Frankfurt meets."""
    swap = _ranked(decisions, "mechanical", "tail_swap:A6-BMJ")
    added = next(a for a in swap.actions if isinstance(a, AddCabinCrew))
    assert len(added.crew_ids) == 1 and added.flights == ["EY123-20270120"]
    refused = next(v for v in decisions["mechanical"].rejected if v.scenario.scenario_id == swap.scenario_id)
    assert any(r.code == "CREW_ILLEGAL" and "EY124-20270120" in r.message for r in refused.rejections)
    handle = _run(account, restore, swap, "chain-cabin")  # executed as planned: the roster rows it writes
    seats = q.crew_assignments(handle, "EY123-20270120")
    assert set(added.crew_ids) <= {s.crew_id for s in seats}
    assert len({s.sector_departure for s in seats}) == 1
    assert_intact(handle, swap)
