"""A plan's messages: one per flight whose schedule or movement changes, each of the kind its change calls for,
each valid by its own format and parsed back by an independent MVT parser (mvt-parser); the crew whose duties
change, the stations and the passengers by what happens to them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import row_builders
from hypothesis import given
from hypothesis import strategies as st
from mvt_parser import MVTParser

from skymarshal.arbitration.actions import (
    AddCabinCrew,
    CancelFlight,
    DelayFlight,
    DivertFlight,
    ReassignCrew,
    RebookPassengers,
    SwapAircraft,
)
from skymarshal.arbitration.crew.contacts import CREW_DELAY_NOTICE_MINUTES
from skymarshal.arbitration.models import Scenario
from skymarshal.messages import formats as fmt
from skymarshal.messages.build import REACTIONARY_CODE, PlanFacts, plan_messages
from skymarshal.models.disruption import Disruption, Scope
from skymarshal.models.operational import CrewDuty, Flight

pytestmark = pytest.mark.unit
DEP = datetime(2027, 1, 20, 9, 0, tzinfo=UTC)
CAUSE = Disruption(
    iata_delay_code=41,
    family="technical",
    cause="aircraft defect",
    scope=Scope(kind="flight", flights=["EY1-20270120"]),
)


def flight(n: int, hour: int = 9, origin: str = "AUH", destination: str = "LHR") -> Flight:
    return row_builders.flight(
        f"EY{n}",
        origin,
        destination,
        DEP.replace(hour=hour),
        420,
        f"A6-BL{chr(64 + n % 26 or 1)}",
        distance_km=5500,
        capacity={"J": 28, "Y": 262},
        flight_id=f"EY{n}-20270120",
    )


def duty(crew_id: str, f: Flight) -> CrewDuty:
    return row_builders.flight_duty(
        crew_id, f, duty_key=f"{f.scheduled_departure:%Y%m%d}#{f.flight_id}", sector_times=False
    )


def scenario(actions) -> Scenario:
    return row_builders.bare_scenario(actions)


def delay(f: Flight, minutes: int) -> DelayFlight:
    return DelayFlight(
        flight_id=f.flight_id,
        delay_minutes=minutes,
        new_departure=f.scheduled_departure + timedelta(minutes=minutes),
        new_arrival=f.scheduled_arrival + timedelta(minutes=minutes),
    )


def test_each_change_gets_its_message_kind_and_the_mvt_parses_back():
    f1, f2, f3, f4, f5 = (flight(n, 8 + n) for n in range(1, 6))
    plan = scenario(
        [
            SwapAircraft(
                flight_id=f1.flight_id,
                from_registration=f1.aircraft_registration,
                to_registration="A6-BLT",
                to_aircraft_type="B789",
            ),
            delay(f1, 45),
            CancelFlight(flight_id=f2.flight_id, reason="no aircraft"),
            RebookPassengers(flight_id=f2.flight_id, passengers=220, onto={f5.flight_id: 150}, interline=70),
            SwapAircraft(
                flight_id=f3.flight_id,
                from_registration=f3.aircraft_registration,
                to_registration="A6-BLZ",
                to_aircraft_type="B78X",
            ),
            DivertFlight(
                flight_id=f4.flight_id, alternate="MCT", new_arrival=f4.scheduled_arrival + timedelta(minutes=30)
            ),
        ]
    )
    facts = PlanFacts(
        flights={f.flight_id: f for f in (f1, f2, f3, f4, f5)},
        crew={f1.flight_id: [duty("C1", f1)], f2.flight_id: [duty("C2", f2)]},
    )
    out = plan_messages(plan, facts, CAUSE)
    by_flight = {m.flight_id: m for m in out.messages}
    assert len(out.messages) == 4 and out.refused == []
    assert (by_flight[f1.flight_id].standard, by_flight[f1.flight_id].action) == ("MVT", "ED")
    assert by_flight[f2.flight_id].text == "ASM\nUTC\nCNL ROTA\nEY2/20JAN27"  # EY2 is not the disruption's flight: 93
    # the equipment element is the new aircraft's (a B78X: its type, its seats, its tail), the old tail in SI
    assert by_flight[f3.flight_id].action == "EQT"
    assert "J 781 .J32Y303 A6BLZ\nSI REPLACES A6BLC" in by_flight[f3.flight_id].text
    parsed = MVTParser().parse(by_flight[f1.flight_id].text)
    assert (parsed.flight_number, parsed.aircraft_registration, parsed.airport_of_movement) == ("EY1", "A6BLT", "AUH")
    assert parsed.estimated_departure == "200945" and parsed.delays[0].reason_codes == ["41"]
    assert parsed.delays[0].durations == ["0045"]
    diverted = MVTParser().parse(by_flight[f4.flight_id].text)
    assert diverted.message_type == "DIV" and diverted.destination_airport == "MCT"
    # who is told: C1 (EY1 45 min late), C2 (EY2 cancelled); every station once; passengers by what happened
    assert {(c.crew_id, c.change) for c in out.crew} == {("C1", "delayed"), ("C2", "released")}
    assert {s.station for s in out.stations} == {"AUH", "LHR", "MCT"}
    groups = {(g.flight_number, g.change, g.onto): g.passengers for g in out.passengers}
    assert groups == {
        ("EY1", "delayed", None): 220,
        ("EY2", "rebooked", "EY5"): 150,
        ("EY2", "interline", "INTERLINE"): 70,
        ("EY4", "diverted", None): 220,
    }
    assert out.totals.model_dump() == {"messages": 4, "crew": 2, "stations": 3, "passengers": 660}


def test_crew_are_told_of_a_call_out_a_release_and_only_a_long_delay():
    f = flight(7)
    short = plan_messages(
        scenario([delay(f, CREW_DELAY_NOTICE_MINUTES - 5)]), PlanFacts({f.flight_id: f}, {f.flight_id: [duty("C1", f)]})
    )
    assert short.crew == [] and short.totals.messages == 1
    plan = scenario(
        [
            delay(f, 90),
            ReassignCrew(flight_id=f.flight_id, replacements={"C1": "R1"}, report_at=f.scheduled_departure),
            AddCabinCrew(
                flight_id=f.flight_id, crew_ids=["R2"], report_at=f.scheduled_departure, flights=[f.flight_id]
            ),
        ]
    )
    out = plan_messages(plan, PlanFacts({f.flight_id: f}, {f.flight_id: [duty("C1", f), duty("C3", f)]}))
    assert {(c.crew_id, c.change) for c in out.crew} == {
        ("C1", "released"),
        ("R1", "called_out"),
        ("R2", "called_out"),
        ("C3", "delayed"),
    }
    assert out.messages[0].text.splitlines()[-1] == f"DL{REACTIONARY_CODE}/0130"  # no disruption given: reactionary


def test_a_message_that_breaks_its_format_is_refused_not_sent():
    f = flight(8).model_copy(update={"flight_number": "EY8", "aircraft_registration": "A6-BLQ"})
    bad = f.model_copy(update={"flight_number": "EY 8"})  # a designator no message may carry
    out = plan_messages(scenario([CancelFlight(flight_id=f.flight_id, reason="x")]), PlanFacts({f.flight_id: bad}))
    assert out.messages == [] and out.refused[0].standard == "ASM" and out.totals.messages == 0


@given(
    minutes=st.integers(1, 24 * 60 - 1),
    code=st.sampled_from([11, 41, 51, 64, 71, 81, 87, 93, 99]),
    hour=st.integers(0, 23),
)
def test_every_delay_message_is_valid_and_parses_back_to_its_figures(minutes, code, hour):
    scheduled = DEP.replace(hour=hour)
    text = fmt.mvt_delay("EY123", scheduled, "A6-BLT", "AUH", scheduled + timedelta(minutes=minutes), code)
    assert fmt.problems_mvt(text) is None
    parsed = MVTParser().parse(text)
    assert parsed.delays[0].reason_codes == [f"{code:02d}"]
    hhmm = parsed.delays[0].durations[0]
    assert int(hhmm[:2]) * 60 + int(hhmm[2:]) == minutes
    assert fmt.problems_asm(fmt.asm_cancel("EY123", scheduled, code)) is None


def test_every_delay_code_family_has_a_change_reason():
    assert [fmt.change_reason(c) for c in (11, 41, 64, 72, 81, 89, 93, 98, 99)] == [
        "COMM",
        "TECH",
        "CREW",
        "WEAT",
        "AIRS",
        "ARPT",
        "ROTA",
        "INDU",
        "OPER",
    ]


CHANGES = ("none", "crew", "cancel", "delay", "swap", "swap+delay", "divert")


@given(st.lists(st.tuples(st.sampled_from(CHANGES), st.integers(1, 600)), min_size=1, max_size=8))
def test_one_valid_message_per_changed_flight_and_none_for_the_rest(changes):
    flights = [flight(n + 1, (6 + n) % 24) for n in range(len(changes))]
    actions: list = []
    changed = set()
    for f, (change, minutes) in zip(flights, changes):
        if change == "crew":
            actions.append(
                ReassignCrew(flight_id=f.flight_id, replacements={"C1": "R1"}, report_at=f.scheduled_departure)
            )
        if change == "cancel":
            actions.append(CancelFlight(flight_id=f.flight_id, reason="x"))
        if "swap" in change:
            actions.append(
                SwapAircraft(
                    flight_id=f.flight_id,
                    from_registration=f.aircraft_registration,
                    to_registration="A6-BLT",
                    to_aircraft_type="B789",
                )
            )
        if "delay" in change:
            actions.append(delay(f, minutes))
        if change == "divert":
            actions.append(DivertFlight(flight_id=f.flight_id, alternate="MCT", new_arrival=f.scheduled_arrival))
        if change not in ("none", "crew"):
            changed.add(f.flight_id)
    if not actions:
        return
    out = plan_messages(scenario(actions), PlanFacts({f.flight_id: f for f in flights}), CAUSE)
    assert sorted(m.flight_id for m in out.messages) == sorted(changed) and out.refused == []
    for message in out.messages:
        problem = fmt.problems_mvt(message.text) if message.standard == "MVT" else fmt.problems_asm(message.text)
        assert problem is None
        if message.standard == "MVT":
            assert MVTParser().parse(message.text).flight_number == message.flight_number
