"""The flight claim on its own (Checkpoints table in the emulated account): taken, refused with the holder named,
released, held after a recovery, lapsed, and always open to the disruption that holds it (a resume)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from skymarshal.workflow.runs import flight_claims as fc
from skymarshal.workflow.tables import WorkflowTables

T0 = datetime(2027, 1, 20, 6, 0, tzinfo=UTC)
FLIGHT = {"flight_id": "EY123-20270120", "flight_number": "EY123", "flight_date": "2027-01-20"}


@pytest.fixture
def tables(blank_account) -> WorkflowTables:
    return WorkflowTables(blank_account.resource(), blank_account.naming)


def _claim(tables, disruption_id: str, at: datetime = T0, run_seconds: int = 1800, cause: str | None = None) -> None:
    fc.claim(
        **FLIGHT,
        disruption_id=disruption_id,
        execution_name=disruption_id,
        run_seconds=run_seconds,
        tables=tables,
        now=at,
        cause=cause,
    )


def test_a_second_run_while_the_first_is_in_progress_is_refused_naming_it(tables):
    _claim(tables, "first")
    with pytest.raises(fc.FlightClaimed) as refused:
        _claim(tables, "second", T0 + timedelta(minutes=5))
    assert refused.value.refusal.code == "FLIGHT_RUN_IN_PROGRESS"
    assert str(refused.value) == (
        "FLIGHT_RUN_IN_PROGRESS: EY123 on 2027-01-20: run first is already handling it; follow or answer that "
        "run; its claim lapses at 2027-01-20T07:30+00:00 if it never finishes"
    )


def test_the_same_disruption_may_claim_again_a_resume(tables):
    _claim(tables, "first")
    _claim(tables, "first", T0 + timedelta(minutes=5))


def test_a_recovered_flight_is_held_for_the_configured_period(tables, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_FLIGHT_HOLD_MINUTES", "120")
    _claim(tables, "first")
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=True, tables=tables, now=T0)
    with pytest.raises(fc.FlightClaimed) as refused:
        _claim(tables, "second", T0 + timedelta(minutes=119))
    assert str(refused.value) == (
        "FLIGHT_RECENTLY_RECOVERED: EY123 on 2027-01-20: run first recovered it from the same cause; a new report "
        "of it is accepted after 2027-01-20T08:00+00:00 (SKYMARSHAL_FLIGHT_HOLD_MINUTES); another cause at once"
    )
    _claim(tables, "second", T0 + timedelta(minutes=121))


def test_a_recovered_flight_holds_against_its_own_cause_not_a_new_one(tables):
    """A crew member sick on a flight just recovered from a defect is a new disruption, not a second report."""
    _claim(tables, "defect", cause="technical")
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="defect", recovered=True, tables=tables, now=T0)
    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RECENTLY_RECOVERED"):
        _claim(tables, "defect again", T0 + timedelta(minutes=30), cause="technical")
    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RECENTLY_RECOVERED"):  # a cause not known: the hold stands
        _claim(tables, "unknown", T0 + timedelta(minutes=30))
    _claim(tables, "sick captain", T0 + timedelta(minutes=31), cause="flight_operations_crew")
    held = tables.checkpoints.get_item(Key={"PK": f"FLIGHTRUN#{FLIGHT['flight_id']}", "SK": "CLAIM"})["Item"]
    assert (held["disruption_id"], held["status"], held["follows"]) == ("sick captain", "running", "defect")
    with pytest.raises(fc.FlightClaimed, match="FLIGHT_RUN_IN_PROGRESS"):  # and holds it as any running claim
        _claim(tables, "defect third", T0 + timedelta(minutes=32), cause="technical")


def test_a_run_that_ended_without_executing_frees_the_flight(tables):
    _claim(tables, "first")
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=False, tables=tables, now=T0)
    _claim(tables, "second", T0 + timedelta(minutes=1))


def test_a_run_that_never_finished_lapses_after_its_timeout_and_margin(tables):
    _claim(tables, "first", run_seconds=1800)
    with pytest.raises(fc.FlightClaimed):
        _claim(tables, "second", T0 + timedelta(minutes=89))
    _claim(tables, "second", T0 + timedelta(minutes=91))


def test_a_late_release_by_a_run_that_lost_its_claim_changes_nothing(tables):
    _claim(tables, "first", run_seconds=0)
    _claim(tables, "second", T0 + timedelta(hours=2))  # the first lapsed
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=False, tables=tables, now=T0)
    with pytest.raises(fc.FlightClaimed) as refused:
        _claim(tables, "third", T0 + timedelta(hours=2, minutes=1))
    assert refused.value.refusal.holder_disruption_id == "second"


def test_zero_hold_frees_a_recovered_flight_at_once(tables, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_FLIGHT_HOLD_MINUTES", "0")
    _claim(tables, "first")
    fc.release(flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=True, tables=tables, now=T0)
    _claim(tables, "second", T0)


def test_a_run_that_cannot_be_resumed_frees_its_flight_and_says_so(tables, monkeypatch):
    from skymarshal.workflow.execution.recovery import release_flight
    from skymarshal.workflow.payloads import run_key

    class Store:  # the run's request artifact, as Validate saved it
        def get(self, key: str):
            return {**FLIGHT} if key == run_key("first", "first", "request") else None

    monkeypatch.setenv(fc.CLAIMS_ENV, "1")
    _claim(tables, "first")
    assert release_flight("first", "first", tables=tables, store=Store()) == (  # type: ignore[arg-type]
        "its claim on EY123 is released: a new report of it is accepted"
    )
    _claim(tables, "second", T0 + timedelta(minutes=5))  # accepted at once, not after the claim lapses
    monkeypatch.setenv(fc.CLAIMS_ENV, "off")
    assert release_flight("second", "second", tables=tables, store=Store()) is None  # type: ignore[arg-type]


def test_a_run_rejected_for_corrected_facts_does_not_free_the_corrected_run_of_its_flight(tables):
    # the corrected run (ID--correct-1) claims the flight while the rejected first run is still on its way to Learn
    _claim(tables, "first")
    fc.claim(
        **FLIGHT,
        disruption_id="first",
        execution_name="first--correct-1",
        run_seconds=1800,
        tables=tables,
        now=T0 + timedelta(minutes=5),
    )
    fc.release(
        flight_id=FLIGHT["flight_id"], disruption_id="first", recovered=False, tables=tables, execution_name="first"
    )
    with pytest.raises(fc.FlightClaimed, match="run first--correct-1 is already handling it"):
        _claim(tables, "second", T0 + timedelta(minutes=6))
    fc.release(
        flight_id=FLIGHT["flight_id"],
        disruption_id="first",
        recovered=False,
        tables=tables,
        execution_name="first--correct-1",
    )
    _claim(tables, "second", T0 + timedelta(minutes=7))
