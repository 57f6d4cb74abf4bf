"""Execute on emulated DynamoDB applies a plan once per execution id: a second call applies nothing, a running id
is refused, and `undo` puts an executed plan back once.
"""

from __future__ import annotations

import pytest
from execution_helpers import copy_rows, plan, snapshot

from skymarshal.data import schema as s
from skymarshal.workflow.execution import execute, undo
from skymarshal.workflow.execution_records import ExecutionRefused, execution_events
from skymarshal.workflow.tables import WorkflowTables


def test_executing_the_same_id_twice_applies_once_and_a_running_id_is_refused(decisions, account, blank_account):
    swap = plan(decisions, "mechanical", "tail_swap")
    keys = copy_rows(account, blank_account, swap)
    resource, naming = blank_account.resource(), blank_account.naming
    first = execute(swap, execution_id="x-twice", tables=WorkflowTables(resource, naming))
    applied = snapshot(blank_account, keys)
    again = execute(swap, execution_id="x-twice", tables=WorkflowTables(resource, naming))
    assert again == first and snapshot(blank_account, keys) == applied
    assert len(execution_events("x-twice", tables=WorkflowTables(resource, naming))) == 2 * len(swap.actions)
    with pytest.raises(ExecutionRefused) as refused:
        execute(
            plan(decisions, "mechanical", "cancel"), execution_id="x-twice", tables=WorkflowTables(resource, naming)
        )
    assert refused.value.code == "SCENARIO_MISMATCH"
    resource.Table(naming(s.CHECKPOINTS)).put_item(
        Item={
            "PK": "EXECUTION#x-busy",
            "SK": "STATE",
            "status": "running",
            "scenario_id": swap.scenario_id,
            "started_at": "2027-01-20T08:00:00Z",
        }
    )
    with pytest.raises(ExecutionRefused) as busy:
        execute(swap, execution_id="x-busy", tables=WorkflowTables(resource, naming))
    assert busy.value.code == "IN_PROGRESS" and snapshot(blank_account, keys) == applied


def test_undo_puts_an_executed_plan_back_once_and_reads_never_scan(decisions, account, blank_account):
    cancel = plan(decisions, "mechanical", "cancel")
    keys = copy_rows(account, blank_account, cancel)
    before = snapshot(blank_account, keys)
    resource = blank_account.resource()
    operations = set()
    resource.meta.client.meta.events.register("before-call.dynamodb", lambda model, **_: operations.add(model.name))
    report = execute(cancel, execution_id="x-undo", tables=WorkflowTables(resource, blank_account.naming))
    assert report.status == "executed" and snapshot(blank_account, keys) != before
    assert operations <= {"GetItem", "Query", "PutItem", "UpdateItem", "TransactWriteItems"}, operations
    assert undo("x-undo", tables=WorkflowTables(resource, blank_account.naming)) == len(report.changed)
    assert snapshot(blank_account, keys) == before
    assert undo("x-undo", tables=WorkflowTables(resource, blank_account.naming)) == 0
