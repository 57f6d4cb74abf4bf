"""A plan is an operation: after executing the demo's tail swap, every tail still flies its day in sequence and
AircraftAvailability says where each aircraft is (``data.integrity``, what ``skymarshal data check`` runs)."""

from __future__ import annotations

from execution_helpers import plan
from integrity_helpers import assert_intact

from skymarshal.cli import main
from skymarshal.data import queries as q
from skymarshal.data.integrity import check_operation
from skymarshal.workflow.execution.execute import execute
from skymarshal.workflow.tables import WorkflowTables


def test_the_seeded_airline_flies_every_rotation_in_sequence(handle):
    result = check_operation(handle)
    assert result.tails > 70 and result.flights > 1000
    assert result.continuity == [], [b.message for b in result.continuity]


def test_the_ey123_swap_takes_the_return_flight_and_leaves_every_rotation_whole(decisions, account, restore):
    swap = plan(decisions, "mechanical", "tail_swap")
    moved = [a for a in swap.actions if a.kind == "swap_aircraft"]
    assert [a.flight_id for a in moved] == ["EY123-20270120", "EY124-20270120"]  # out and back, then swap back
    assert any("swap back at AUH after EY124" in n for n in swap.execution_notes)
    restore.append("integrity-ey123")
    report = execute(swap, execution_id="integrity-ey123", tables=WorkflowTables(account.resource(), account.naming))
    assert report.status == "executed", report.error
    handle = account.handle()
    spare = moved[0].to_registration
    assert q.get_flight(handle, "EY124-20270120").aircraft_registration == spare
    days = {d.date.isoformat(): d for d in q.aircraft_days(handle, spare)}
    assert days["2027-01-20"].status == "IN_SERVICE"  # a spare that flies is no longer a spare that day
    assert days["2027-01-21"].station == "AUH"  # back at the hub
    assert_intact(handle, swap)  # the whole airline, and the crew chains through the flights it changed


def test_data_check_prints_the_summary_and_fails_only_on_a_broken_rotation(local, capsys):
    assert main(["data", "check"]) == 0
    out = capsys.readouterr().out
    assert "0 continuity break(s)" in out and "open   GROUNDED: EY123-20270120" in out


def test_a_reported_grounding_becomes_a_work_order_that_grounds_the_tail(decisions, blank_account):
    """The overlay's what-if AOG (labour hours a float, as the policy estimate gives them) is written once."""
    from datetime import UTC, datetime

    from skymarshal.arbitration.actions import GroundAircraft
    from skymarshal.data.access import DataHandle
    from skymarshal.models.operational import WorkOrder
    from skymarshal.rules.mel import aircraft_airworthiness

    opened = datetime(2027, 1, 20, 8, 40, tzinfo=UTC)
    order = WorkOrder(
        work_order_id="WHATIF-EY132-20270120",
        aircraft_registration="A6-AAA",
        opened_at=opened,
        kind="DEFECT",
        status="OPEN",
        ata_chapter="29",
        description="Reported: hydraulic fault. Troubleshoot (what-if, not yet in the maintenance system)",
        station="AUH",
        aog=True,
        estimated_labour_hours=5.5,
    )
    action = GroundAircraft(flight_id="EY132-20270120", registration="A6-AAA", work_order=order.model_dump(mode="json"))
    scenario = plan(decisions, "mechanical", "cancel").model_copy(update={"actions": [action]})
    tables = WorkflowTables(blank_account.resource(), blank_account.naming)
    report = execute(scenario, execution_id="ground-once", tables=tables)
    assert report.status == "executed", report.error
    handle = DataHandle(naming=blank_account.naming, resource=blank_account.resource())
    orders = q.work_orders_for_aircraft(handle, "A6-AAA")
    assert [o.work_order_id for o in orders] == ["RPT-EY132-20270120"]
    assert orders[0].estimated_labour_hours == 5.5 and "recorded by ground-once" in orders[0].description
    assert not aircraft_airworthiness(orders, opened.replace(hour=12), registration="A6-AAA").airworthy
    again = execute(scenario, execution_id="ground-twice", tables=tables)
    assert again.status == "executed" and len(q.work_orders_for_aircraft(handle, "A6-AAA")) == 1


def test_an_edited_plan_that_breaks_a_rotation_is_refused_naming_the_flight_and_changes_nothing(decisions, account):
    """The duty manager's edit of the demo swap keeps EY123 on the spare but drops EY124's move: the spare would be
    in Frankfurt with nothing to fly, EY124 on a tail that is not there. Execution refuses it before any write."""
    swap = plan(decisions, "mechanical", "tail_swap")
    edited = swap.model_copy(
        update={
            "actions": [a for a in swap.actions if not (a.kind == "swap_aircraft" and a.flight_id == "EY124-20270120")]
        }
    )
    handle = account.handle()
    before = q.get_flight(handle, "EY123-20270120")
    report = execute(edited, execution_id="edited-ey123", tables=WorkflowTables(account.resource(), account.naming))
    assert (report.status, report.reason_code, report.changed) == ("rolled_back", "ROTATION_BROKEN", [])
    assert report.error is not None and "EY124-20270120" in report.error and "\n" not in report.error
    assert q.get_flight(account.handle(), "EY123-20270120") == before
