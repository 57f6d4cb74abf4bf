"""A plan is an operation: after executing the demo's tail swap, every tail still flies its day in sequence and
AircraftAvailability says where each aircraft is (``data.integrity``, what ``skymarshal data check`` runs)."""

from __future__ import annotations

from execution_helpers import plan

from skymarshal.cli import main
from skymarshal.data import queries as q
from skymarshal.data.integrity import check_operation
from skymarshal.workflow.execution import execute
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
    result = check_operation(handle, [spare, moved[0].from_registration])
    assert result.continuity == [], [b.message for b in result.continuity]


def test_data_check_prints_the_summary_and_fails_only_on_a_broken_rotation(local, capsys):
    assert main(["data", "check"]) == 0
    out = capsys.readouterr().out
    assert "0 continuity break(s)" in out and "open   GROUNDED: EY123-20270120" in out
