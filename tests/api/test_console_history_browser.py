"""The duty manager's whole loop in the browser, beside the approve test: abort with a reason, the run's checkpoints
and threads, a new run continued from the revision round, select rank 2 with a reason; and an Observer who sees
all of it with no control that changes anything."""

from __future__ import annotations

import json
import uuid

import pytest
from api_helpers import DEMO
from test_console_browser import page  # noqa: F401 (the headless Chromium fixture)

from skymarshal.workflow.models import ApprovalDecision

CHANGING_CONTROLS = ("Approve", "Submit override", "Continue from here", "Retry", "Report")


@pytest.fixture
def waiting(wf):
    """A run of the demo waiting for the duty manager; rejected at the end if a test left it waiting."""
    name = wf.start(DEMO, disruption_id=f"hist-{uuid.uuid4().hex[:6]}")["execution_name"]
    assert wf.follow(name, timeout_s=600).awaiting_approval
    yield name
    if wf.pending(name):
        wf.decide(name, ApprovalDecision(action="reject", decided_by="Test", comment="test over"))


def _open(page, role: str, name: str) -> None:  # noqa: F811 (the fixture, passed on)
    page.get_by_test_id(f"login-{role}").click()
    page.get_by_test_id("who").filter(has_text=f"({role})").wait_for()
    page.locator(f"#runs a[data-run='{name}']").click(timeout=30_000)
    page.get_by_test_id("cards").locator("article").first.wait_for(timeout=60_000)


def _override(page, action: str, reason: str, plan: int | None = None, instruction: str | None = None) -> None:  # noqa: F811
    if not page.locator("#override-box").evaluate("box => box.open"):
        page.locator("#override-box summary").click()
    page.locator("#override [name=action]").select_option(action)
    if plan is not None:
        page.locator("#override [name=scenario_id]").select_option(index=plan - 1)
    if instruction is not None:
        page.locator("#override [name=instruction]").fill(instruction)
    page.locator("#override [name=reason]").fill(reason)
    page.locator("#override button[type=submit]").click()
    page.get_by_test_id("confirm-yes").click()


def test_alternatives_abort_continue_from_the_revision_round_and_select_rank_2(page, wf, waiting, restore):  # noqa: F811
    _open(page, "DutyManager", waiting)
    # Alternatives with an instruction that changes the plans: shown back with what it removed.
    _override(page, "alternatives", "the spare is promised to maintenance", instruction="no tail swap")
    read = page.get_by_test_id("instruction-read")
    read.filter(has_text="removed").wait_for(timeout=120_000)
    assert "no tail swap" in read.inner_text()
    titles = page.get_by_test_id("cards").locator("h4").all_inner_texts()
    assert titles and not [t for t in titles if "Swap" in t], titles

    _override(page, "abort", "the aircraft came back serviceable")
    page.get_by_test_id("outcome").filter(has_text="rejected").wait_for(timeout=120_000)
    assert wf.output(waiting)["approval"]["comment"] == "the aircraft came back serviceable"

    page.locator("#history > summary").click()  # opening the fold loads it
    rounds = page.get_by_test_id("rounds").locator("li")
    rounds.nth(1).wait_for(timeout=30_000)
    assert [rounds.nth(i).get_attribute("data-round") for i in range(rounds.count())] == ["initial", "revision"]
    threads = page.get_by_test_id("threads")
    assert threads.locator("th", has_text="crew_compliance · initial").count() == 1
    assert threads.locator("th", has_text="arbitrator · arbitration").count() == 1
    assert page.get_by_test_id("history-export").get_attribute("download") == f"{waiting}-history.json"

    form = page.get_by_test_id("continue-revision")
    form.locator("input[name=reason]").fill("crew data corrected; decide again")
    form.locator("button[type=submit]").click()
    continued = f"{waiting}--resume-1"
    page.locator("#run-id").filter(has_text=continued).wait_for(timeout=30_000)
    restore.append(continued)
    page.get_by_test_id("approve-1").wait_for(timeout=600_000)
    request = json.loads(wf.describe(continued)["input"])
    assert (request["reuse_through"], request["resumes"], request["requested_by"]) == (
        "revision",
        waiting,
        "Dev Duty Manager",
    )

    chosen = page.locator("#override [name=scenario_id] option").nth(1).get_attribute("value")
    _override(page, "select", "rank 2 keeps the spare for the evening wave", plan=2)
    page.get_by_test_id("outcome").filter(has_text="Outcome: executed").wait_for(timeout=300_000)
    approval = wf.output(continued)["approval"]
    assert (approval["action"], approval["scenario_id"], approval["comment"]) == (
        "select",
        chosen,
        "rank 2 keeps the spare for the evening wave",
    )


def test_an_observer_sees_the_decision_and_the_history_but_no_control_that_changes_anything(page, waiting):  # noqa: F811
    _open(page, "Observer", waiting)
    page.locator("#history > summary").click()  # opening the fold loads it
    page.get_by_test_id("rounds").locator("li").nth(1).wait_for(timeout=30_000)
    assert page.locator("form.continue").count() == 0
    assert page.locator("#report").is_hidden() and page.get_by_test_id("override").is_hidden()
    visible_enabled = [
        b.inner_text().strip()
        for b in page.locator("button").all()
        if b.is_visible() and b.is_enabled() and not b.evaluate("b => !!b.closest('dialog, [hidden]')")
    ]
    assert not [text for text in visible_enabled if text.startswith(CHANGING_CONTROLS)], visible_enabled
