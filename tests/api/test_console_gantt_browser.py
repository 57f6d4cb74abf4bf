"""The decision panel in headless Chromium (Debian's, driven by Playwright): for each demo the console shows the
facts above the plans, the three-plan comparison and the before/after Gantt with the right bars moved — EY123's
flight onto the spare tail, EY101 delayed with reserves called out, EY11 diverted with a ferry after it — and a
screenshot of each is written under the test's temporary folder (not committed). The approve button is reached
by the keyboard and asks for a confirmation before anything is decided."""

from __future__ import annotations

import shutil
import time

import pytest
from test_console_browser import CHROMIUM, CHROMIUM_ARGS

from skymarshal.workflow.models import ApprovalDecision

PROMPTS = {
    "mechanical": "Flight EY123 on January 20th 2027 had a mechanical failure",
    "crew_timeout": "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "weather": "Flight EY11 on January 22nd 2027: storm at Heathrow, crosswinds above limits",
}
CODES = {"mechanical": 41, "crew_timeout": 64, "weather": 72}
# A screenshot of the panel at 1440 × 900: big enough to hold the chart, small enough to be a page, not a dump.
SCREENSHOT_BYTES = (30_000, 3_000_000)


@pytest.fixture(scope="module")
def runs(wf):
    """The three demos, each started once and left waiting for the duty manager; rejected at the end, and
    their learning records removed by conftest's module_learning (other tests count the seeded history)."""
    names = {}
    for situation, prompt in PROMPTS.items():
        name = wf.start(prompt, disruption_id=f"gantt-{situation}")["execution_name"]
        names[situation] = name
    for name in names.values():
        progress = wf.follow(name, timeout_s=900)
        states = [state for state, _ in progress.states][-5:]
        assert progress.awaiting_approval, (
            name,
            progress.status,
            states,
            wf.describe(name).get("cause"),
            _failure(wf, name),
        )
    yield names
    for name in names.values():
        if wf.pending(name):
            wf.decide(name, ApprovalDecision(action="reject", decided_by="test", comment="browser test done"))
        deadline = time.monotonic() + 300
        while wf.describe(name)["status"] == "RUNNING" and time.monotonic() < deadline:  # Learn writes it last
            time.sleep(0.5)


def _failure(wf, name: str) -> object:
    """What a failed step raised (its history's last failure event), so the assertion says why."""
    try:
        history = wf.sfn.get_execution_history(executionArn=wf.execution_arn(name), reverseOrder=True)["events"]
    except Exception as exc:  # the diagnosis must not hide the assertion
        return repr(exc)
    failed = [e for e in history if e["type"].endswith("Failed") or e["type"].endswith("TimedOut")]
    return {k: v for k, v in failed[0].items() if k.endswith("EventDetails")} if failed else None


@pytest.fixture
def browser_page(server):
    from playwright.sync_api import sync_playwright

    if not shutil.which("chromium"):
        pytest.fail("chromium is not installed: `make browser` installs Debian's chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        tab = browser.new_page(viewport={"width": 1440, "height": 900})
        errors: list[str] = []
        tab.on("pageerror", lambda e: errors.append(str(e)))
        tab.goto(server)
        tab.get_by_test_id("login-DutyManager").click()
        tab.get_by_test_id("who").filter(has_text="(DutyManager)").wait_for()
        yield tab
        assert not errors, errors
        browser.close()


def _open(page, name: str) -> None:
    page.evaluate(f"location.hash = {name!r}")
    page.get_by_test_id("approve-1").wait_for(timeout=120_000)
    page.locator("[data-testid=gantt-svg] g.bar.plan").first.wait_for(timeout=60_000)


def _plan_bars(page, change: str, flight: str | None = None, row: str | None = None):
    selector = f"[data-testid=gantt-svg] g.bar.plan[data-change={change}]"
    selector += f"[data-flight='{flight}']" if flight else ""
    selector += f"[data-row='{row}']" if row else ""
    return page.locator(selector)


def _top(wf, name: str) -> dict:
    return wf.decision(name)["ranked"][0]["scenario"]


@pytest.mark.parametrize("situation", sorted(PROMPTS))
def test_the_decision_panel_shows_facts_comparison_and_the_plans_gantt(browser_page, wf, runs, situation, tmp_path):
    page, name = browser_page, runs[situation]
    _open(page, name)
    # Facts first: the cause and code, and the report's words marked where a stated fact came from.
    page.get_by_test_id("facts-cause").filter(has_text=f"code {CODES[situation]}").wait_for()
    assert page.get_by_test_id("facts-table").locator("tbody tr").count() >= 1
    assert page.get_by_test_id("facts-report").locator("mark.stated").count() >= 1
    # The comparison: one row per ranked plan, each named for a screen reader with its figures.
    decision = wf.decision(name)
    rows = page.get_by_test_id("compare").locator("tbody tr")
    assert rows.count() == len(decision["ranked"][:3])
    assert "Plan 1" in rows.first.get_attribute("aria-label") and "total cost" in rows.first.get_attribute("aria-label")
    top = _top(wf, name)
    flight = decision["disruption"]["scope"]["flight_numbers"][0]
    # The right bars moved, as the top plan's typed actions say.
    if situation == "mechanical":
        swap = next(a for a in top["actions"] if a["kind"] == "swap_aircraft")
        assert _plan_bars(page, "swapped_in", flight, swap["to_registration"]).count() == 1
        assert _plan_bars(page, "swapped_out", flight, swap["from_registration"]).count() == 1
    elif situation == "crew_timeout":
        assert top["kind"] == "crew_swap" and _plan_bars(page, "delayed", flight).count() == 1
        page.locator("#gantt-mode input[value=crew]").check()
        reserves = len(next(a for a in top["actions"] if a["kind"] == "reassign_crew")["replacements"])
        assert _plan_bars(page, "reserve_call_out", flight).count() == reserves
        assert _plan_bars(page, "replaced", flight).count() == reserves
    else:  # the storm is waited out (a diversion breaks EY12's rotation): delayed, with reserves where needed
        assert not any(a["kind"] == "divert" for a in top["actions"])
        assert _plan_bars(page, "delayed", flight).count() == 1
        assert page.locator("[data-testid=gantt-svg] g.band[data-band=weather]").count() >= 1
    # Each bar's tooltip names the flight, its passengers and the constraints checked for the plan.
    page.locator("#gantt-mode input[value=tail]").check()
    tooltip = page.locator(f"[data-testid=gantt-svg] g.bar.plan[data-flight='{flight}'] title").first.text_content()
    assert flight in tooltip and "passengers" in tooltip and "binding constraints checked" in tooltip
    # Another plan of the comparison redraws the chart for it.
    if rows.count() > 1:
        page.get_by_test_id("show-plan-2").click()
        page.get_by_test_id("gantt-title").filter(has_text="Plan #2").wait_for()
    shot = tmp_path / f"console-{situation}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert SCREENSHOT_BYTES[0] < shot.stat().st_size < SCREENSHOT_BYTES[1]


def test_approve_is_reached_by_keyboard_and_asks_for_a_confirmation(browser_page, wf, runs):
    page, name = browser_page, runs["mechanical"]
    _open(page, name)
    approve = page.get_by_test_id("approve-1")
    approve.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_test_id("confirm")
    dialog.wait_for(state="visible")
    assert "Approve plan #1" in dialog.inner_text()
    # The safe choice has the focus, and Escape cancels: nothing was decided.
    assert page.evaluate("document.activeElement.value") == "cancel"
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    assert wf.pending(name) is not None
    # A plan bar is reachable by Tab and named for a screen reader.
    page.locator("[data-testid=gantt-svg] g.bar.plan").first.focus()
    assert "EY123" in (page.evaluate("document.activeElement.getAttribute('aria-label')") or "")
