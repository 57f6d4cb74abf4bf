"""A hand-built single-flight decision shaped like the EY123 demo's (a tail swap first, a delay, a cancellation),
as the arbitrator's output dict the API's views read: twenty identical agent-constraint checks per plan (the
rows the console must fold into one), a spare refused for an expired MEL item, two delays refused for crew duty,
and, on request, an escalation. Markup-like text in the data is there to prove it is printed as written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from skymarshal.arbitration.models import (
    ArbitratorOutput,
    ConstraintCheck,
    Escalation,
    RankedScenario,
    Scenario,
    ScenarioRejection,
    Sensitivity,
    ValidatedScenario,
)

DEP = datetime(2027, 1, 20, 9, 0, tzinfo=UTC)
MEL = "A6-BLU has an expired MEL item (38-11-01, category C, expired 18 Jan): not dispatchable"
CREW_LIMIT = "captain C0123 would exceed the maximum FDP of 13:00 [ORO.FTL.205(b)(1)]"


def _scenario(sid: str, title: str, delay: int, *, registration: str = "A6-BLA", operates: bool = True) -> Scenario:
    return Scenario(
        scenario_id=sid,
        kind="tail_swap" if sid.startswith("tail_swap") else "delay" if operates else "cancel",
        title=title,
        sources=["generator"],
        actions=[],
        operates=operates,
        registration=registration if operates else None,
        aircraft_type="B789" if operates else None,
        departure=DEP + timedelta(minutes=delay) if operates else None,
        arrival=DEP + timedelta(minutes=delay + 420) if operates else None,
        arrival_airport="FRA" if operates else None,
        delay_minutes=delay,
        arrival_delay_minutes=delay,
        passengers_impacted=0 if delay < 15 and operates else 231,
        cost_usd=4200.0 + 40 * delay,
    )


def _checks() -> list[ConstraintCheck]:
    repeated = [
        ConstraintCheck(
            constraint="crew illegal (crew_compliance)",
            source="crew_compliance",
            clause="agent constraint",
            subject=f"C01{i:02d}",
            status="legal",
            message="kept: crew of EY123 legal only up to a 180 min delay",
        )
        for i in range(20)
    ]
    rules = ConstraintCheck(
        constraint="crew legality",
        source="rules",
        clause="ORO.FTL.205(b)(1)",
        subject="EY123",
        status="legal",
        message="FDP 09:40 of a 13:00 maximum",
    )
    per_member = [
        rules.model_copy(update={"subject": crew, "message": f"{crew}: FDP {fdp} of a 13:00 maximum"})
        for crew, fdp in (("C0123", "09:40"), ("C0124", "10:05"))
    ]
    return [rules, *per_member, *repeated]


def _ranked(rank: int, scenario: Scenario, score: float) -> RankedScenario:
    return RankedScenario(
        rank=rank,
        scenario=scenario,
        score=score,
        criteria={},
        confidence=0.86,
        rationale=f"{scenario.title}: keeps every binding finding <b>[bold]as written[/bold]</b>",
        pros=["no passenger misses a connection"],
        cons=["uses the last spare at AUH"],
        compliance=_checks(),
        precedent="2 of 3 past mechanical disruptions on B789 AUH-FRA recovered by a tail swap",
        sensitivity=Sensitivity(
            delay_plus_30="still rank 1",
            delay_minus_30="still rank 1",
            one_spare_fewer="the delay becomes rank 1",
            one_reserve_more="no change",
        ),
    )


def decision_output(*, escalate: bool = False) -> dict:
    swap = _scenario("tail_swap:A6-BLT", "Swap to spare A6-BLT", 35, registration="A6-BLT")
    delay = _scenario("delay:150", "Delay 150 min for the repair", 150)
    cancel = _scenario("cancel", "Cancel and protect every passenger", 0, operates=False)
    refused = [
        ValidatedScenario(
            scenario=_scenario("tail_swap:A6-BLU", "Swap to spare A6-BLU", 40, registration="A6-BLU"),
            checks=[],
            rejections=[ScenarioRejection(code="AIRCRAFT_NOT_AIRWORTHY", message=MEL)],
        ),
        *(
            ValidatedScenario(
                scenario=_scenario(f"delay:{d}", f"Delay {d} min", d),
                checks=[],
                rejections=[
                    ScenarioRejection(code="CREW_LIMIT_EXCEEDED", message=CREW_LIMIT),
                    ScenarioRejection(code="CREW_LIMIT_EXCEEDED", message=CREW_LIMIT),
                ],
            )
            for d in (240, 300)
        ),
    ]
    escalations = (
        [Escalation(code="LOW_CONFIDENCE", message="the recommendation's confidence 0.41 is under 0.60")]
        if escalate
        else []
    )
    output = ArbitratorOutput(
        final_decision="Swap EY123 to spare A6-BLT, 35 min late",
        recommendations=[],
        conflicts_identified=[],
        conflict_resolutions=[],
        safety_overrides=[],
        justification="The spare is airworthy and the crew stays within its FDP; the repair would take 150 min.",
        reasoning="",
        confidence=0.41 if escalate else 0.86,
        status="escalated" if escalate else "decided",
        flight_id="EY123-20270120",
        ranked=[_ranked(1, swap, 0.91), _ranked(2, delay, 0.64), _ranked(3, cancel, 0.40)],
        rejected=refused,
        escalations=escalations,
    )
    return output.model_dump(mode="json")
