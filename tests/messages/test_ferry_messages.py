"""A network plan's positioning ferry is a flight the plan adds: one ASM NEW (service type P, positioning/ferry, SSIM
Appendix C) with its equipment and its leg at UTC times, addressed to its origin and destination; its pilots are told
they are called out, as a rescue ferry's are. A rescue aircraft's ferry stays a leg of the rescue: no message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import row_builders

from skymarshal.arbitration.actions import FerryAircraft
from skymarshal.arbitration.models import Scenario
from skymarshal.messages import formats as fmt
from skymarshal.messages.build import PlanFacts, plan_messages
from skymarshal.models.disruption import Disruption, Scope, Window

pytestmark = pytest.mark.unit
DEP = datetime(2027, 1, 22, 13, 0, tzinfo=UTC)
FOG = Disruption(
    iata_delay_code=71,
    family="weather",
    cause="fog",
    scope=Scope(kind="airport", airport="AUH"),
    window=Window(start=DEP - timedelta(hours=3), end=DEP),
)


def _ferry(departure: datetime = DEP, minutes: int = 75, **extra) -> FerryAircraft:
    fields = {"flight_id": "FERRY-A6-EJQ-202701221300", "positioning": True, "flight_number": "EY9510Q"} | extra
    return FerryAircraft(
        **fields, registration="A6-EJQ", aircraft_type="A320", origin="AUH", destination="MCT",
        departure=departure, arrival=departure + timedelta(minutes=minutes), crew={"CPT": "P1", "FO": "P2"},
        crew_report_at=departure - timedelta(hours=1),
    )  # fmt: skip


def _scenario(*actions) -> Scenario:
    return Scenario(
        scenario_id="network:min_delay", kind="delay", title="t", sources=["network"], actions=list(actions),
        operates=True, registration=None, aircraft_type=None, departure=None, arrival=None, arrival_airport=None,
        delay_minutes=0, arrival_delay_minutes=0, passengers_impacted=0, cost_usd=0.0,
    )  # fmt: skip


def test_the_new_names_the_flight_its_equipment_and_its_leg_in_utc():
    text = fmt.asm_new("EY9510Q", DEP, DEP + timedelta(minutes=75), "AUH", "MCT", 71, "320", "J8Y128", "A6-EJQ")
    assert text == "ASM\nUTC\nNEW WEAT\nEY9510Q/22JAN27\nP 320 .J8Y128 A6EJQ\nAUH1300 MCT1415"
    assert fmt.problems_asm(text) is None
    late = fmt.asm_new("EY9700Q", DEP.replace(hour=23), DEP.replace(hour=23) + timedelta(hours=2), "AUH", "MCT", 71,
                       "320", "Y150", "A6-EJQ")  # fmt: skip
    assert late.endswith("AUH2300 MCT0100/1") and fmt.problems_asm(late) is None  # lands the next UTC day


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("ASM\nUTC\nNEW WEAT\nEY9510Q/22JAN27\nP 320 .Y150 A6EJQ", "a NEW names its equipment and its leg"),
        ("ASM\nUTC\nNEW WEAT\nEY9510Q/22JAN27\nAUH1300 MCT1415", "a NEW names its equipment and its leg"),
        ("ASM\nUTC\nNEW WEAT\nEY9510Q/22JAN27\nP 320 .Y150 A6EJQ\nAUH1300 AUH1415", "goes nowhere"),
        ("ASM\nUTC\nNEW WEAT\nEY9510Q/22JAN27\nP 320 .Y150 A6EJQ\nAUH2460 MCT1415", "2460 is not a time HHMM"),
        ("ASM\nUTC\nCNL WEAT\nEY123/22JAN27\nAUH1300 MCT1415", "carries no leg"),
        ("ASM\nUTC\nEQT WEAT\nEY123/22JAN27", "an EQT names the new equipment"),
    ],
)
def test_a_new_without_its_parts_is_refused_and_only_a_new_adds_a_leg(text, problem):
    assert problem in (fmt.problems_asm(text) or "")


def test_a_positioning_ferry_sends_one_new_to_both_stations_and_calls_its_pilots():
    ferry = _ferry()
    out = plan_messages(_scenario(ferry), PlanFacts(flights={}), FOG)  # not in the table: the plan adds it
    assert out.refused == []
    (message,) = out.messages
    assert (message.standard, message.action, message.flight_id, message.flight_number) == (
        "ASM", "NEW", ferry.flight_id, "EY9510Q",
    )  # fmt: skip
    assert message.text.splitlines()[2:] == ["NEW WEAT", "EY9510Q/22JAN27", "P 320 .J8Y128 A6EJQ", "AUH1300 MCT1415"]
    assert fmt.problems_asm(message.text) is None and message.stations == ["AUH", "MCT"]
    assert {(c.crew_id, c.flight_number, c.change) for c in out.crew} == {
        ("P1", "EY9510Q", "called_out"),
        ("P2", "EY9510Q", "called_out"),
    }
    assert all("as EY9510Q" in c.notification for c in out.crew)
    assert [s.station for s in out.stations] == ["AUH", "MCT"] and out.totals.messages == 1


def test_a_rescue_ferry_is_a_leg_of_the_rescue_and_sends_nothing_of_its_own():
    rescued = row_builders.flight("EY124", "MCT", "AUH", DEP + timedelta(hours=3), 75, "A6-BLA", flight_id="F1")
    ferry = _ferry(flight_id="F1", positioning=False, flight_number=None)
    out = plan_messages(_scenario(ferry), PlanFacts(flights={"F1": rescued}), FOG)
    assert out.messages == [] and out.refused == [] and {c.crew_id for c in out.crew} == {"P1", "P2"}
