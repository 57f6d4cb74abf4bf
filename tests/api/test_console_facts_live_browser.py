"""The facts panel end to end, in headless Chromium on `skymarshal serve` and the synthesized state machine on the
emulated account: a duty manager reports a flight whose cause the reader can only guess, sees the reading say so,
corrects the code in the facts panel, confirms, and follows the run analysed again on the corrected facts — the
first run rejected with the correction as its reason, the corrected run's own ranked decision awaiting approval, the
audit naming who corrected what from what."""

from __future__ import annotations

from test_console_browser import page  # noqa: F401 (the headless Chromium fixture)

from skymarshal.workflow.models import ApprovalDecision

# A fuel supplier that cannot uplift (AHM 36), said vaguely enough that the reader can only guess the cause.
REPORT = "EY11 on January 20th: something failed at the pump, no uplift for about two hours"


def test_a_misread_report_is_corrected_in_the_facts_panel(page, wf):  # noqa: F811
    page.get_by_test_id("login-DutyManager").click()
    page.get_by_test_id("who").filter(has_text="(DutyManager)").wait_for()
    page.locator("#report textarea").fill(REPORT)
    page.locator("#report button[type=submit]").click()
    page.get_by_test_id("facts-unsure").wait_for(timeout=600_000)  # the decision arrives saying what it guessed
    first = page.locator("#run-id").inner_text()
    read_code = page.get_by_test_id("correct-code").input_value()
    assert read_code != "36"

    page.get_by_test_id("correct-code").fill("36")
    page.get_by_test_id("correct-submit").click()
    page.get_by_test_id("confirm-yes").click()
    page.locator("#run-id").filter(has_text=f"{first}--correct-1").wait_for(timeout=60_000)
    corrected = page.get_by_test_id("facts-corrected")
    corrected.wait_for(timeout=600_000)
    again = page.locator("#run-id").inner_text()
    try:
        assert f"corrected code: {read_code} → 36 by Dev Duty Manager" in corrected.inner_text()
        assert "code 36" in page.get_by_test_id("facts-cause").inner_text()
        # the corrected run's own decision: ranked plans on the corrected facts, awaiting the duty manager
        assert page.get_by_test_id("cards").locator("article").count() >= 1
        assert page.get_by_test_id("approve-1").is_visible() and page.locator("#final-decision").inner_text()
        page.get_by_test_id("run-phase").filter(has_text="awaiting_approval").wait_for(timeout=30_000)
        output = wf.output(first) or {}
        assert (
            output["outcome"]["status"] == "rejected" and "facts corrected (code=36)" in output["approval"]["comment"]
        )
        [request] = [r for r in wf.audit(again)["trail"] if r["kind"] == "request" and r["body"].get("corrects")]
        assert request["actor"] == "Dev Duty Manager"
        assert request["body"]["corrections"][0] | {"by": None} == {
            "key": "code",
            "value": "36",
            "read": read_code,
            "by": None,
        }
    finally:
        if wf.pending(again):
            wf.decide(again, ApprovalDecision(action="reject", decided_by="test", comment="test over"))
        wf.follow(again, timeout_s=300)  # Learn writes its record last (conftest's module_learning removes it)
