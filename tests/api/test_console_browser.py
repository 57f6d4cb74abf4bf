"""The console in headless Chromium (Debian's, driven by Playwright): a development duty manager reports the
EY123 demo, watches it live, approves the top plan with one click and sees the execution complete and the
audit chain verified."""

from __future__ import annotations

import shutil

import pytest
from api_helpers import DEMO

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# As the machine notes say: without these, Chromium keeps reaching for Google's hosts on a closed network.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def page(server):
    from playwright.sync_api import sync_playwright

    if not shutil.which("chromium"):
        pytest.fail(
            "chromium is not installed: `make test` installs Debian's chromium (see the Makefile's browser target)"
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context()
        tab = context.new_page()
        messages: list[str] = []
        tab.on("console", lambda m: messages.append(f"{m.type}: {m.text}"))
        tab.on("pageerror", lambda e: messages.append(f"pageerror: {e}"))
        tab.goto(server)
        yield tab
        assert not [m for m in messages if m.startswith("pageerror")], messages
        browser.close()


def test_a_duty_manager_approves_the_demo_from_the_browser(page, wf, restore):
    page.get_by_test_id("login-DutyManager").click()
    page.get_by_test_id("who").filter(has_text="Dev Duty Manager (DutyManager)").wait_for()
    page.locator("#report textarea").fill(DEMO)
    page.locator("#report button[type=submit]").click()
    # Live progress: the agents' table fills, then three plan cards appear when the run waits for a decision.
    # (the agents' table is folded under "How the run went": attached, not shown)
    page.locator("#agents tbody tr").first.wait_for(state="attached", timeout=600_000)
    page.get_by_test_id("approve-1").wait_for(timeout=600_000)
    run_id = page.locator("#run-id").inner_text()
    restore.append(run_id)
    assert page.get_by_test_id("cards").locator("article").count() in (1, 2, 3)
    page.get_by_test_id("run-phase").filter(has_text="awaiting_approval").wait_for(timeout=30_000)
    page.get_by_test_id("approve-1").click()
    page.get_by_test_id("confirm-yes").click()  # every decision is confirmed
    page.get_by_test_id("outcome").filter(has_text="Outcome: executed").wait_for(timeout=300_000)
    page.get_by_test_id("audit-verified").filter(has_text="chain verified").wait_for(timeout=60_000)
    assert page.get_by_test_id("execution-events").locator("li.completed").count() >= 1
    # What the browser did is what the record says.
    output = wf.output(run_id)
    assert output["outcome"]["status"] == "executed" and output["approval"]["decided_by"] == "Dev Duty Manager"


def test_an_observer_sees_runs_but_no_approve_buttons(page, wf):
    page.get_by_test_id("login-Observer").click()
    page.get_by_test_id("who").filter(has_text="(Observer)").wait_for()
    assert page.locator("#report").is_hidden()
    page.get_by_test_id("runs").locator("li").first.wait_for(timeout=30_000)


def test_the_assistant_panel_shows_alternates_along_a_route(page):
    page.get_by_test_id("login-Observer").click()
    panel = page.get_by_test_id("assistant-panel")
    panel.locator("textarea").fill("airports near the route from AUH to LHR with a runway long enough for a 787")
    panel.locator("button[type=submit]").click()
    rows = panel.locator(".sm-assistant-panel table tbody tr")
    rows.first.wait_for(timeout=60_000)
    assert rows.count() >= 10
    assert "FRA" in panel.locator(".sm-assistant-panel").inner_text()
