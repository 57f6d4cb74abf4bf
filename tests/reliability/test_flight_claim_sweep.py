"""The claim sweep on its own (issue 48 item 5): a claim whose run has ended is free at once, unless that run's plan
was carried out (then the flight is held, as Learn would have held it) or is half applied (the claim stands until
the run is resumed or settled). Every holder status × every execution record, exhaustively."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta

import pytest

from skymarshal.workflow.execution.records import record_key
from skymarshal.workflow.runs import flight_claims as fc
from skymarshal.workflow.tables import WorkflowTables

T0 = datetime(2027, 1, 20, 6, 0, tzinfo=UTC)
FLIGHT = {"flight_id": "EY123-20270120", "flight_number": "EY123", "flight_date": "2027-01-20"}
STATUSES = ("RUNNING", "SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED", None)  # None: cannot be told
RECORDS = (None, "executed", "running", "rolled_back", "compensation_failed")


@pytest.fixture
def tables(blank_account) -> WorkflowTables:
    return WorkflowTables(blank_account.resource(), blank_account.naming)


def _claim(tables, name: str, status=None, at: datetime = T0) -> None:
    fc.claim(
        **FLIGHT,
        disruption_id=name,
        execution_name=name,
        run_seconds=1800,
        tables=tables,
        now=at,
        execution_status=status,
    )


def _held(tables) -> dict:
    return tables.checkpoints.get_item(Key={"PK": f"FLIGHTRUN#{FLIGHT['flight_id']}", "SK": "CLAIM"})["Item"]


@pytest.mark.parametrize(("holder", "record"), list(itertools.product(STATUSES, RECORDS)))
def test_an_ended_run_gives_way_unless_its_plan_was_carried_out(tables, holder, record):
    _claim(tables, "first")
    if record is not None:
        tables.checkpoints.put_item(Item={**record_key("first"), "status": record, "execution_name": "first"})
    asked: list[str] = []

    def status(name: str) -> str | None:
        asked.append(name)
        return holder

    free = holder in fc.ENDED and record not in ("executed", "running")
    if free:
        _claim(tables, "second", status, T0 + timedelta(minutes=1))
        held = _held(tables)
        assert (held["execution_name"], held["replaced"], held["replaced_status"]) == ("second", "first", holder)
    else:
        with pytest.raises(fc.FlightClaimed) as refused:
            _claim(tables, "second", status, T0 + timedelta(minutes=1))
        recovered = holder in fc.ENDED and record == "executed"  # held as Learn would have: a recovered flight
        assert refused.value.refusal.code == ("FLIGHT_RECENTLY_RECOVERED" if recovered else "FLIGHT_RUN_IN_PROGRESS")
        assert refused.value.refusal.holder_execution_name == "first"
    assert asked == ["first"]  # the holder, and only it, was looked up


def test_a_released_or_recovered_claim_is_never_looked_up(tables):
    _claim(tables, "first")
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=True, tables=tables, now=T0)

    def status(name: str) -> str:
        raise AssertionError(f"{name} looked up")

    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RECENTLY_RECOVERED"):
        _claim(tables, "second", status, T0 + timedelta(minutes=1))


def test_without_a_state_machine_in_the_environment_nothing_is_looked_up(tables, monkeypatch):
    monkeypatch.delenv("SKYMARSHAL_STATE_MACHINE_ARN", raising=False)
    assert fc.status_from_env() is None
    _claim(tables, "first")
    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RUN_IN_PROGRESS"):
        _claim(tables, "second", None, T0 + timedelta(minutes=1))


def test_a_holder_that_took_the_claim_meanwhile_is_not_replaced(tables):
    """The take-over names the holder it read: if another run took the claim between the read and the write, the
    write fails and the new run is refused, naming whoever holds it now."""
    _claim(tables, "first")

    def status(name: str) -> str:
        fc.claim(  # the race: a third run takes over first's lapsed claim while "second" asks about first
            **FLIGHT,
            disruption_id="third",
            execution_name="third",
            run_seconds=1800,
            tables=tables,
            now=T0 + timedelta(hours=3),
            execution_status=lambda _: "RUNNING",
        )
        return "FAILED"

    with pytest.raises(fc.FlightClaimed) as refused:
        _claim(tables, "second", status, T0 + timedelta(minutes=1))
    assert refused.value.refusal.holder_execution_name == "third"


def test_local_start_frees_the_claim_of_a_run_it_brings_back_aborted(account, monkeypatch):
    """local/runs.py's settler: a run interrupted by a restart, nothing of it executed, comes back ABORTED with its
    flight free (a new report of it is accepted at once, not after the claim's lapse)."""
    import json
    import uuid

    from skymarshal.local.emulator import BUCKET
    from skymarshal.local.runs import settler
    from skymarshal.workflow.aws.s3 import S3Objects
    from skymarshal.workflow.payloads import ArtifactStore, run_key

    monkeypatch.setenv(fc.CLAIMS_ENV, "1")
    name = f"restart-{uuid.uuid4().hex[:6]}"
    flight = {**FLIGHT, "flight_id": f"ZZ{uuid.uuid4().hex[:4]}-20270120"}
    tables, store = account.tables(), ArtifactStore(BUCKET, S3Objects(account.client("s3")))
    store.put(run_key(name, name, "request"), flight)  # as Validate saved it
    fc.claim(**flight, disruption_id=name, execution_name=name, run_seconds=1800, tables=tables)
    settled = settler(account)(name, json.dumps({"disruption_id": name}))
    assert settled.verdict == "not_executed" and settled.output is None
    key = {"PK": f"FLIGHTRUN#{flight['flight_id']}", "SK": "CLAIM"}
    assert tables.checkpoints.get_item(Key=key, ConsistentRead=True)["Item"]["status"] == "released"
    tables.checkpoints.delete_item(Key=key)


def test_an_executed_holder_with_no_hold_frees_the_flight_for_the_new_run(tables, monkeypatch):
    """SKYMARSHAL_FLIGHT_HOLD_MINUTES=0: Learn would have released an executed plan's flight, so the sweep does, and
    the run that found it takes the claim at once (not refused by a claim the sweep just released)."""
    monkeypatch.setenv("SKYMARSHAL_FLIGHT_HOLD_MINUTES", "0")
    _claim(tables, "first")
    tables.checkpoints.put_item(Item={**record_key("first"), "status": "executed", "execution_name": "first"})
    _claim(tables, "second", lambda _: "FAILED", T0 + timedelta(minutes=1))
    held = _held(tables)
    assert (held["execution_name"], held["status"]) == ("second", "running")


def test_the_sweep_holds_an_executed_flight_from_the_claim_time(tables, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_FLIGHT_HOLD_MINUTES", "120")
    _claim(tables, "first")
    tables.checkpoints.put_item(Item={**record_key("first"), "status": "executed", "execution_name": "first"})
    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RECENTLY_RECOVERED") as refused:
        _claim(tables, "second", lambda _: "SUCCEEDED", T0 + timedelta(minutes=1))
    assert refused.value.refusal.until == (T0 + timedelta(minutes=121)).isoformat(timespec="minutes")
