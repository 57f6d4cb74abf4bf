"""State that is never stale, in headless Chromium on a canned API (console_fake): the runs listed by what happened;
"looking for alternatives…" gone once the new plans arrive; the decision kept on the page after approval, marked
with what was chosen and by whom (and on a finished run opened later); an answer refused because the run moved on
shows its line and what is true now; a long debate folded by round; the phase during a debate says debate."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from decision_sample import decision_output
from test_console_why_browser import RUN, progress

from skymarshal.api.views import decision_view
from skymarshal.models.debate import DebateRecord
from skymarshal.views.run_list import OUTCOME_WORDS, RunLine
from skymarshal.workflow.runs.progress import Progress, phase_of

pytestmark = pytest.mark.enable_socket
AT = datetime(2027, 1, 20, 7, tzinfo=UTC)


def view(**changes) -> dict:
    output = decision_output() | changes
    return decision_view(RUN, output, awaiting_approval=True, attempt=1).model_dump(mode="json")


def line(run_id: str, outcome: str, subject: str, report: str, status: str) -> dict:
    return RunLine(
        disruption_id=run_id,
        outcome=outcome,  # type: ignore[arg-type]
        outcome_text=OUTCOME_WORDS[outcome],
        subject=subject,
        report=report,
        detail=None,
        status=status,
        started_at=AT,
    ).model_dump(mode="json")


def test_the_runs_list_says_what_happened(console, fake_api):  # noqa: F811
    fake_api.answer(
        "GET",
        "/api/disruptions",
        [
            line("r-wait", "awaiting_decision", "EY19 captain", "EY19 sick captain", "RUNNING"),
            line("r-esc", "escalated", "AUH", "Abu Dhabi closed by fog", "SUCCEEDED"),
            line("r-rej", "rejected", "EY101", "EY101 crew out of hours", "SUCCEEDED"),
            line("r-ref", "refused", "", "the coffee machine is broken", "FAILED"),
        ],
    )
    sign_in(console, "Observer")
    items = console.get_by_test_id("runs").locator("li")
    items.first.wait_for()
    texts = [items.nth(i).inner_text() for i in range(items.count())]
    assert texts[0].startswith("awaiting your decision") and "EY19 captain" in texts[0]
    assert texts[1].startswith("escalated") and "Abu Dhabi closed by fog" in texts[1]
    assert texts[2].startswith("rejected") and texts[3].startswith("refused as input")
    assert not any("SUCCEEDED" in t or "FAILED" in t for t in texts)  # the Step Functions status is a detail
    assert "Step Functions SUCCEEDED" in (items.nth(1).locator("small").first.get_attribute("title") or "")


def open_waiting(page, api) -> None:
    api.answer("GET", f"/api/disruptions/{RUN}", progress())
    api.push(RUN, "scenarios", view())
    sign_in(page, "DutyManager", run=RUN)
    page.get_by_test_id("approve-1").wait_for(timeout=20_000)


def recorded(action: str, by: str = "Dev DutyManager", **more) -> dict:
    return {"disruption_id": RUN, "action": action, "decided_by": by, "decided_at": AT.isoformat(), **more}


def test_new_plans_clear_looking_for_alternatives(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api)
    fake_api.answer("POST", f"/api/disruptions/{RUN}/override", recorded("alternatives", instruction="no spares"))
    console.get_by_test_id("override").locator("summary").click()
    console.select_option("#override [name=action]", "alternatives")
    console.fill("#override [name=instruction]", "no spares")
    console.fill("#override [name=reason]", "spare crew not positioned")
    console.locator("#override button[type=submit]").click()
    console.get_by_test_id("confirm-yes").click()
    console.get_by_test_id("outcome").filter(has_text="looking for alternatives…").wait_for()
    assert "Asked for alternatives" in console.get_by_test_id("decided").inner_text()
    # the second attempt's plans arrive on the same stream: the request is answered
    fake_api.push(
        RUN,
        "scenarios",
        decision_view(RUN, decision_output(), awaiting_approval=True, attempt=2).model_dump(mode="json"),
    )
    console.get_by_test_id("decided").wait_for(state="hidden")
    assert console.get_by_test_id("outcome").inner_text() == ""
    assert console.get_by_test_id("approve-1").is_visible()


def test_the_decision_stays_after_approval_marked_with_who_chose_what(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api)
    fake_api.answer("POST", f"/api/disruptions/{RUN}/approve", recorded("approve", scenario_id="tail_swap:A6-BLT"))
    console.get_by_test_id("approve-1").click()
    console.get_by_test_id("confirm-yes").click()
    decided = console.get_by_test_id("decided")
    decided.filter(has_text="Approved plan #1 Swap to spare A6-BLT by Dev DutyManager").wait_for()
    fake_api.push(RUN, "done", {"status": "SUCCEEDED", "outcome": {"status": "executed", "message": "executed"}})
    console.get_by_test_id("outcome").filter(has_text="Outcome: executed").wait_for()
    assert console.get_by_test_id("cards").locator("article").count() == 3 and decided.is_visible()
    assert console.locator("article.chosen .chosen-mark").inner_text() == "✔ chosen"
    assert console.get_by_test_id("approve-1").is_hidden()


def test_a_finished_run_opened_later_shows_its_decision_and_who_took_it(console, fake_api):  # noqa: F811
    taken = decision_view(RUN, decision_output(), awaiting_approval=False, attempt=1)
    taken = taken.model_copy(update={"decided": recorded("reject", by="Ops Lead", comment="weather improving")})
    fake_api.answer("GET", f"/api/disruptions/{RUN}", progress("done", status="SUCCEEDED", awaiting_approval=False))
    fake_api.answer("GET", f"/api/disruptions/{RUN}/decision", taken.model_dump(mode="json"))
    sign_in(console, "DutyManager", run=RUN)
    console.get_by_test_id("decided").filter(has_text="Rejected every plan by Ops Lead").wait_for(timeout=20_000)
    assert "weather improving" in console.get_by_test_id("decided").inner_text()
    assert console.get_by_test_id("approve-1").is_hidden() and console.get_by_test_id("override").is_hidden()


def test_an_answer_to_a_run_that_moved_on_is_one_line_and_the_page_shows_the_truth(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api)
    line_ = "execution 'why-ey123' was already decided by Other Manager at 2027-01-20T07:05:00+00:00"
    fake_api.answer("POST", f"/api/disruptions/{RUN}/approve", {"statusCode": 409, "message": line_}, status=409)
    taken = decision_view(RUN, decision_output(), awaiting_approval=False, attempt=1)
    taken = taken.model_copy(update={"decided": recorded("approve", by="Other Manager", scenario_id="delay:150")})
    fake_api.answer("GET", f"/api/disruptions/{RUN}/decision", taken.model_dump(mode="json"))
    fake_api.answer("GET", f"/api/disruptions/{RUN}", progress("executing", awaiting_approval=False))
    console.get_by_test_id("approve-1").click()
    console.get_by_test_id("confirm-yes").click()
    console.locator("#decision-error").filter(has_text=line_).wait_for()
    assert (
        "Approved plan #2 Delay 150 min for the repair by Other Manager"
        in console.get_by_test_id("decided").inner_text()
    )
    assert console.get_by_test_id("run-phase").inner_text() == "executing"


def test_a_five_round_debate_is_folded_by_round(console, fake_api):  # noqa: F811
    issue = {
        "kind": "safety_vs_business",
        "agents": ["network", "crew_compliance"],
        "holdouts": ["network"],
        "text": "network keeps proposing a delay the crew cannot fly",
    }
    rounds = [
        {
            "round": n,
            "conflict": {"round": n, "issues": [issue]},
            "changed": [] if n > 3 else [{"agent": "network", "before": "delay 240", "after": "delay 180"}],
        }
        for n in (3, 4, 5)
    ]
    debate = {
        "rounds_run": 5,
        "outcome": "maximum",
        "reason": "no agreement by round 5",
        "rounds": rounds,
        "open_issues": [issue],
    }
    DebateRecord.model_validate(debate)  # the shape the arbitrator records
    fake_api.answer("GET", f"/api/disruptions/{RUN}", progress())
    fake_api.push(RUN, "scenarios", view(debate=debate))
    sign_in(console, "DutyManager", run=RUN)
    panel = console.get_by_test_id("debate")
    panel.locator("li[data-round]").first.wait_for(timeout=20_000)
    summaries = panel.locator("li[data-round] > details > summary")
    assert [summaries.nth(i).inner_text() for i in range(3)] == [
        "Round 3: 1 agent moved",
        "Round 4: nobody changed position (same conflict as the round before)",
        "Round 5: nobody changed position (same conflict as the round before)",
    ]
    assert panel.inner_text().count(issue["text"]) == 0  # folded: the conflict is read by opening its round
    assert (panel.text_content() or "").count(issue["text"]) == 1  # and stated once, not once per round


def test_the_phase_during_a_debate_round_is_debate():
    for state in ("Debate round: conflict stated", "Network agent (debate)", "Collate debate round", "Debate again?"):
        assert phase_of(Progress(status="RUNNING", current=state)) == "debate", state


def test_a_run_the_workflow_escalated_says_so_at_the_top_with_what_to_do(console, fake_api):  # noqa: F811
    from skymarshal.api.why import run_escalation

    banner = run_escalation({"reason": "SAFETY_AGENT_FAILED", "message": "a safety agent did not complete"})
    assert banner is not None and run_escalation(None) is None
    ended = progress("done", status="SUCCEEDED", awaiting_approval=False, escalation=banner.model_dump(mode="json"))
    fake_api.answer("GET", f"/api/disruptions/{RUN}", ended)
    sign_in(console, "DutyManager", run=RUN)
    shown = console.get_by_test_id("run-escalation").locator(".escalation")
    shown.wait_for(timeout=20_000)
    assert shown.get_attribute("data-code") == "SAFETY_AGENT_FAILED"
    assert "What you can do: a safety agent did not answer: retry the failed agents" in shown.inner_text()
