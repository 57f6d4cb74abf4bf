"""The console in headless Chromium (Debian's, driven by Playwright): a development duty manager reports the
EY123 demo, watches it live, approves the top plan with one click and sees the execution complete and the
audit chain verified — while the operation board, open on another tab, draws the swap without a reload."""

from __future__ import annotations

import shutil

import pytest
from api_helpers import DEMO
from boto3.dynamodb.conditions import Key

from skymarshal.data import schema as s
from skymarshal.models.operational import Flight

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


def _board_tab(context, server: str, day: str):
    """A second tab, signed in, on the operation board of `day`."""
    tab = context.new_page()
    tab.goto(server)
    tab.get_by_test_id("login-DutyManager").click()
    tab.get_by_test_id("board-svg").wait_for(timeout=60_000)
    tab.get_by_test_id("board-day").fill(day)
    tab.get_by_test_id("board-day").dispatch_event("change")
    tab.get_by_test_id("board-status").filter(has_text=f"{day}:").wait_for(timeout=60_000)
    return tab


def _second_flight(account) -> Flight:
    """A hub departure of 20 January on a tail the demo does not touch, for a second disruption."""
    rows = account.handle().query(s.FLIGHTS, Key("aircraft_type").eq("A320"), index=s.TYPE_DEPARTURE_INDEX)
    flights = sorted((Flight.model_validate(r) for r in rows), key=lambda f: f.scheduled_departure)
    return next(
        f
        for f in flights
        if f.origin == "AUH"
        and f.scheduled_departure.date().isoformat() == "2027-01-20"
        and f.scheduled_departure.hour >= 12
        and f.aircraft_registration not in ("A6-BLA", "A6-BLT")
        and f.status == "SCHEDULED"
    )


def test_a_duty_manager_approves_the_demo_from_the_browser(page, server, account, wf, restore):
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
    # Another tab on the operation board of EY123's day, while the run waits: its flag on the tail it is about.
    board = _board_tab(page.context, server, "2027-01-20")
    board.locator(f'.board-marker[data-run="{run_id}"]').wait_for(timeout=60_000)
    page.get_by_test_id("approve-1").click()
    page.get_by_test_id("confirm-yes").click()  # every decision is confirmed
    page.get_by_test_id("outcome").filter(has_text="Outcome: executed").wait_for(timeout=300_000)
    # The board follows the approval given on the other tab, with no reload: EY123 drawn on the spare tail it was
    # swapped onto, the flag gone, and A6-BLQ's AOG (its open hydraulic defect) still blocked out (issue 50).
    swapped = board.locator('[data-row="A6-BLT"] .bar.plan[data-flight="EY123"][data-change="swapped_in"]')
    swapped.wait_for(timeout=120_000)
    assert board.locator(f'.board-marker[data-run="{run_id}"]').count() == 0
    assert board.locator('[data-row="A6-BLQ"] .block.aog').count() >= 1
    page.get_by_test_id("audit-verified").filter(has_text="chain verified").wait_for(timeout=60_000)
    assert page.get_by_test_id("execution-events").locator("li.completed").count() >= 1
    # What the browser did is what the record says.
    output = wf.output(run_id)
    assert output["outcome"]["status"] == "executed" and output["approval"]["decided_by"] == "Dev Duty Manager"
    # A second disruption reported and approved on the first tab: the board hears of the new run on its stream, flags
    # it, and draws the flight as the approved plan left it — still with no reload.
    flight = _second_flight(account)
    page.evaluate("location.hash = ''")
    page.locator("#report textarea").fill(
        f"Flight {flight.flight_number} on January 20th 2027: hydraulic leak found at the walk-round, "
        "engineers estimate two hours to fix"
    )
    page.locator("#report button[type=submit]").click()
    page.get_by_test_id("approve-1").wait_for(timeout=600_000)
    second = page.locator("#run-id").inner_text()
    restore.append(second)
    board.locator(f'.board-marker[data-run="{second}"]').wait_for(timeout=30_000)  # its stream looks every 5 s
    page.get_by_test_id("approve-1").click()
    page.get_by_test_id("confirm-yes").click()
    page.get_by_test_id("outcome").filter(has_text="Outcome: executed").wait_for(timeout=300_000)
    board.locator(f'.board-marker[data-run="{second}"]').wait_for(state="detached", timeout=120_000)
    moved = board.locator(f'.bar.plan[data-flight="{flight.flight_number}"]:not([data-change="unchanged"])')
    assert moved.count() == 1, board.locator(f'.bar.plan[data-flight="{flight.flight_number}"]').count()
    assert board.evaluate("performance.getEntriesByType('navigation').length") == 1


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
