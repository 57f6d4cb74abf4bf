"""The why beside every plan, in headless Chromium on a canned API (console_fake): each card's binding findings
folded to one row per distinct finding with its clause and sentence, the precedent and what would change its
rank; the plans refused grouped by their typed reason; an escalation as a banner with what can be done; and the
data's markup-like text printed as written."""

from __future__ import annotations

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from decision_sample import CREW_LIMIT, MEL, decision_output

from skymarshal.api.views import decision_view

pytestmark = pytest.mark.enable_socket
RUN = "why-ey123"


def progress(phase: str = "awaiting_approval", **more) -> dict:
    return {
        "disruption_id": RUN,
        "status": "RUNNING",
        "phase": phase,
        "current_state": "Await duty manager approval",
        "awaiting_approval": phase == "awaiting_approval",
        "prompt": "Flight EY123 on January 20th 2027 had a mechanical failure",
        "agents": [],
        "states": [],
        "phases": [],
        "outcome": None,
        "started_at": "2027-01-20T07:00:00Z",
        "stopped_at": None,
        **more,
    }


def open_decision(page, api, *, escalate: bool = False, role: str = "DutyManager") -> dict:
    view = decision_view(RUN, decision_output(escalate=escalate), awaiting_approval=True, attempt=1)
    api.answer("GET", f"/api/disruptions/{RUN}", progress())
    api.stream(RUN, ("scenarios", view.model_dump(mode="json")))
    sign_in(page, role, run=RUN)
    page.get_by_test_id("cards").locator("article").first.wait_for(timeout=20_000)
    return view.model_dump(mode="json")


def test_each_card_shows_its_distinct_findings_with_their_sentences(console, fake_api):  # noqa: F811
    open_decision(console, fake_api)
    findings = console.get_by_test_id("findings-1")
    rows = findings.locator("tbody tr")
    # 23 checks: three of the rules' FDP (one sentence per crew member) and twenty identical agent-constraint rows —
    # one row per finding, not twenty-three
    assert rows.count() == 2
    text = findings.text_content() or ""
    assert "kept: crew of EY123 legal only up to a 180 min delay" in text and "×20" in text
    assert "ORO.FTL.205(b)(1)" in text and "C0100, C0101, C0102, C0103 +16" in text
    assert "2 findings, from 23 checks" in (findings.locator("caption").text_content() or "")
    fdp = rows.filter(has_text="ORO.FTL.205(b)(1)")
    assert "FDP 09:40 of a 13:00 maximum" in (fdp.text_content() or "") and "2 more" in (fdp.text_content() or "")
    assert "C0124: FDP 10:05 of a 13:00 maximum" in (fdp.text_content() or "")


def test_each_card_shows_its_precedent_and_what_would_change_its_rank(console, fake_api):  # noqa: F811
    open_decision(console, fake_api)
    assert "recovered by a tail swap" in console.get_by_test_id("precedent-1").inner_text()
    sensitivity = console.get_by_test_id("sensitivity-2").inner_text()
    assert "one spare aircraft fewer: the delay becomes rank 1" in sensitivity
    assert "The spare is airworthy" in console.get_by_test_id("justification").inner_text()


def test_the_refused_plans_are_grouped_by_their_typed_reason(console, fake_api):  # noqa: F811
    open_decision(console, fake_api)
    refused = console.get_by_test_id("refused")
    assert refused.locator("h3").inner_text() == "Plans refused (3)"
    refused.get_by_test_id("refused-fold").locator("summary").first.click()  # folded below the plans
    groups = refused.locator("details.refused-group")
    assert [groups.nth(i).get_attribute("data-code") for i in range(groups.count())] == [
        "CREW_LIMIT_EXCEEDED",
        "AIRCRAFT_NOT_AIRWORTHY",
    ]
    groups.nth(1).locator("summary").click()
    assert MEL in groups.nth(1).inner_text() and "Swap to spare A6-BLU" in groups.nth(1).inner_text()
    groups.nth(0).locator("summary").click()
    # a refusal given twice is said once
    assert groups.nth(0).inner_text().count(CREW_LIMIT) == 2  # two plans, one sentence each


def test_an_escalation_is_a_banner_saying_what_can_be_done(console, fake_api):  # noqa: F811
    open_decision(console, fake_api, escalate=True)
    banner = console.get_by_test_id("escalations").locator(".escalation")
    assert banner.count() == 1 and banner.get_attribute("data-code") == "LOW_CONFIDENCE"
    assert "What you can do: the recommendation is uncertain" in banner.inner_text()


def test_no_escalation_no_banner_and_data_markup_is_printed_as_written(console, fake_api):  # noqa: F811
    open_decision(console, fake_api)
    assert console.get_by_test_id("escalations").locator(".escalation").count() == 0
    rationale = console.locator("article[data-rank='1'] .rationale")
    assert "<b>[bold]as written[/bold]</b>" in rationale.inner_text()
    assert rationale.locator("b").count() == 0
