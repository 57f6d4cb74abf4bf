"""A plan that moves a later flight to another tail is valid only where that tail has an availability row for the
flight's day, in service or spare and of the type — what Execute checks before it writes. A rescue flown after the
crew's rest once carried a swap past the data's last day: Execute refused it (ROW_MISSING), after approval."""

from __future__ import annotations

from boto3.dynamodb.conditions import Key
from execution_helpers import plan
from reported import reported

from skymarshal.arbitration.actions import SwapAircraft
from skymarshal.arbitration.context import load_context
from skymarshal.arbitration.validation.scenario import validate
from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.models.agent_response import AgentResponse
from skymarshal.models.operational import Flight
from skymarshal.workflow.steps.rounds import run_rounds

MECHANICAL = "Flight EY123 on January 20th 2027 had a mechanical failure"


def _later_swap(scenario) -> SwapAircraft:
    return next(a for a in scenario.actions if isinstance(a, SwapAircraft) and a.flight_id != "EY123-20270120")


def _missing(result, flight_id: str) -> list:
    return [r for r in result.rejections if r.code == "DATA_MISSING" and flight_id in r.message]


def test_a_later_swap_onto_a_day_the_tail_has_no_row_for_is_refused_naming_the_flight(decisions, account):
    handle = account.handle()
    swap = plan(decisions, "mechanical", "tail_swap")
    later = _later_swap(swap)  # the out-and-back: EY124 moves with EY123
    days = {d.date for d in q.aircraft_days(handle, later.to_registration)}
    beyond = next(
        f
        for t in ("B789", "A320", "A321")
        for r in handle.query(s.FLIGHTS, Key("aircraft_type").eq(t), index=s.TYPE_DEPARTURE_INDEX, forward=False)
        if (f := Flight.model_validate(r)).flight_date not in days
    )
    collation = {
        a: AgentResponse.model_validate(r) for a, r in run_rounds(MECHANICAL, handle=handle, llm=None)[1].items()
    }
    flight = q.get_flight(handle, "EY123-20270120")
    ctx = load_context(MECHANICAL, flight, collation, handle, None, reported(handle, MECHANICAL))  # type: ignore[arg-type]
    assert not _missing(validate(ctx, swap), later.flight_id)
    moved = [a.model_copy(update={"flight_id": beyond.flight_id}) if a is later else a for a in swap.actions]
    refused = _missing(validate(ctx, swap.model_copy(update={"actions": moved})), beyond.flight_id)
    assert refused and str(beyond.flight_date) in refused[0].message, refused
    other_type = "A320" if later.to_aircraft_type != "A320" else "B789"
    retyped = [a.model_copy(update={"to_aircraft_type": other_type}) if a is later else a for a in swap.actions]
    assert _missing(validate(ctx, swap.model_copy(update={"actions": retyped})), later.flight_id)
