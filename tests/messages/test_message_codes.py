"""Messages coded as the standards code them: a knock-on flight's MVT carries 93 (aircraft rotation), never the root
cause's code, and says the root cause in SI; the flight the disruption hits carries its own code, whatever station
the report names beside it. An ASM EQT for a tail swap carries the new aircraft in its equipment element (type,
seats, registration), the element a schedule system reads. Every MVT is read back by mvt-parser (PyPI)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mvt_parser import MVTParser
from test_plan_messages import DEP, flight, scenario

from skymarshal.arbitration.actions import DelayFlight, SwapAircraft
from skymarshal.data.ssim_schedule import IATA_TYPE
from skymarshal.messages import formats as fmt
from skymarshal.messages.build import REACTIONARY_CODE, PlanFacts, delay_code_for, plan_messages
from skymarshal.models.disruption import DELAY_CODES, Disruption, Scope, Window
from skymarshal.models.fleet import AIRCRAFT_TYPES

pytestmark = pytest.mark.unit
ROOT_CODES = sorted(c for c in DELAY_CODES if c != REACTIONARY_CODE)


def disruption(code: int, scope: Scope) -> Disruption:
    window = Window(start=DEP, end=DEP + timedelta(hours=3)) if scope.kind == "airport" else None
    return Disruption.of_code(code, scope=scope, window=window)


def delay(f, minutes: int) -> DelayFlight:
    return DelayFlight(
        flight_id=f.flight_id,
        delay_minutes=minutes,
        new_departure=f.scheduled_departure + timedelta(minutes=minutes),
        new_arrival=f.scheduled_arrival + timedelta(minutes=minutes),
    )


@given(code=st.sampled_from(ROOT_CODES), minutes=st.integers(5, 600), station_named=st.booleans())
def test_a_knock_on_flight_is_93_with_its_root_cause_said(code: int, minutes: int, station_named: bool) -> None:
    hit = flight(1, 8, "AUH", "LHR")
    knock_on = flight(2, 16, "LHR", "AUH")  # the same tail's next sector, out of the station the report names
    scope = Scope(kind="flight", flights=[hit.flight_id], airport="LHR" if station_named else None)
    plan = scenario([delay(hit, minutes), delay(knock_on, minutes)])
    out = plan_messages(plan, PlanFacts({f.flight_id: f for f in (hit, knock_on)}), disruption(code, scope))
    assert out.refused == []
    by_flight = {m.flight_id: MVTParser().parse(m.text) for m in out.messages}
    assert by_flight[hit.flight_id].delays[0].reason_codes == [f"{code:02d}"]
    assert by_flight[knock_on.flight_id].delays[0].reason_codes == ["93"]
    assert by_flight[knock_on.flight_id].supplementary_info == [f"ROOT CAUSE DL{code:02d}"]
    assert by_flight[hit.flight_id].supplementary_info == []


def test_an_airport_scope_codes_its_flights_and_not_the_others() -> None:
    at_lhr, elsewhere = flight(1, 8, "AUH", "LHR"), flight(3, 9, "AUH", "BOM")
    closure = disruption(87, Scope(kind="airport", airport="LHR"))
    assert delay_code_for(at_lhr, closure) == 87 and delay_code_for(elsewhere, closure) == REACTIONARY_CODE
    listed = disruption(87, Scope(kind="airport", airport="LHR", flights=[at_lhr.flight_id]))
    back = flight(2, 20, "LHR", "AUH")  # touches LHR, but outside the listed flights: its aircraft is late
    assert delay_code_for(back, listed) == REACTIONARY_CODE


@given(new_type=st.sampled_from(sorted(AIRCRAFT_TYPES)), code=st.sampled_from(ROOT_CODES))
def test_a_tail_swap_asm_carries_the_new_aircraft_in_its_equipment_element(new_type: str, code: int) -> None:
    f = flight(1, 8)
    swap = SwapAircraft(
        flight_id=f.flight_id,
        from_registration=f.aircraft_registration,
        to_registration="A6-XYZ",
        to_aircraft_type=new_type,
    )
    scope = Scope(kind="flight", flights=[f.flight_id])
    (message,) = plan_messages(scenario([swap]), PlanFacts({f.flight_id: f}), disruption(code, scope)).messages
    lines = message.text.split("\n")
    assert (lines[0], lines[2]) == ("ASM", f"EQT {fmt.change_reason(code)}") and fmt.problems_asm(message.text) is None
    service, iata, configuration, registration = lines[4].split(" ")
    seats = {c: n for c, n in AIRCRAFT_TYPES[new_type].capacity.items() if n}
    assert (service, registration) == ("J", "A6XYZ")
    assert iata == IATA_TYPE.get(new_type, new_type[-3:])
    read = {
        part[0]: int(part[1:])
        for part in configuration.lstrip(".").replace("F", " F").replace("J", " J").replace("Y", " Y").split()
    }
    assert read == seats
    assert lines[5] == f"SI REPLACES {f.aircraft_registration.replace('-', '')}"
