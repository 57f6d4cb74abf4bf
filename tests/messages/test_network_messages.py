"""The AUH fog closure's network plans on the seeded airline: every plan sends one message per flight it cancels,
retimes or gives another tail, and an ASM NEW for each positioning ferry it adds — and none for a flight it leaves
alone — each valid, every MVT parsed back by mvt-parser, and a contact list with its counts."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from mvt_parser import MVTParser

from skymarshal.arbitration.plans.network import network_scenario, with_contacts
from skymarshal.intake.airport_facts import network_report
from skymarshal.messages import formats as fmt
from skymarshal.messages.build import plan_messages
from skymarshal.messages.read import plan_facts
from skymarshal.network.objectives import NetworkPlanConfig
from skymarshal.network.validation import network_plans

FOG = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd"
NOW = datetime(2026, 11, 24, 18, tzinfo=UTC)


@pytest.fixture(scope="module")
def fog(account):
    handle = account.handle()
    disruption, overlay = network_report(FOG, handle, NOW)
    seen = handle.with_overlay(overlay)
    return seen, disruption, network_plans(seen, disruption, config=NetworkPlanConfig(seconds_per_solve=1.0))


def test_each_fog_plan_sends_one_message_per_changed_flight_and_counts_whom_to_tell(fog):
    handle, disruption, decision = fog
    assert decision.valid
    for validated in decision.valid:
        plan = validated.plan
        changed = {
            a.flight_id
            for a in plan.actions
            if a.action in ("cancel", "ferry")  # a ferry is a flight the plan adds: an ASM NEW
            or (a.action in ("retime", "tail_swap", "operate") and a.delay_minutes > 0)
            or a.new_registration not in (None, a.registration)
        }
        scenario = network_scenario(plan)
        out = plan_messages(scenario, plan_facts(handle, scenario), disruption)
        sent = [m.flight_id for m in out.messages]
        assert out.refused == [], out.refused
        assert sorted(sent) == sorted(changed), plan.plan_id  # one each, and only the changed ones
        for message in out.messages:
            if message.standard == "MVT":
                assert fmt.problems_mvt(message.text) is None
                parsed = MVTParser().parse(message.text)
                assert parsed.flight_number == message.flight_number
            else:
                assert fmt.problems_asm(message.text) is None
        cancelled = sum(a.action == "cancel" for a in plan.actions)
        assert sum(m.action == "CNL" for m in out.messages) == cancelled
        ferries = {a.flight_id: a for a in plan.actions if a.action == "ferry"}
        assert {m.flight_id for m in out.messages if m.action == "NEW"} == set(ferries)
        for m in (m for m in out.messages if m.action == "NEW"):  # its own number, to its origin and destination
            ferry = ferries[m.flight_id]
            assert m.flight_number == ferry.flight_number and m.stations == [ferry.origin, ferry.destination]
        assert len({ferry.flight_number for ferry in ferries.values()}) == len(ferries)
        # flights at AUH in the closure carry the fog's code; their knock-ons are reactionary (93)
        codes = {
            line[2:4]
            for m in out.messages
            if m.standard == "MVT"
            for line in m.text.splitlines()
            if line.startswith("DL")
        }
        assert codes <= {f"{disruption.iata_delay_code:02d}", "93"}
        assert out.totals.messages == len(changed) and out.totals.stations >= (1 if changed else 0)
        assert any(s.station == "AUH" for s in out.stations) or not changed
        if cancelled:
            assert out.totals.crew > 0 and out.totals.passengers > 0
        # the plan's totals count the same crew its contact list names (arbitration/crew/contacts.py, one definition)
        rostered = {fid: [d.crew_id for d in crew] for fid, crew in plan_facts(handle, scenario).crew.items()}
        assert with_contacts(plan, rostered.__getitem__).totals.crew_to_contact == out.totals.crew
