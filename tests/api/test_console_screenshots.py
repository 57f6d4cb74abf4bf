"""The console on real runs of the state machine, in headless Chromium against `skymarshal serve`'s app: EY123's
mechanical failure, EY101's crew running out of duty time, a sick captain, the AUH fog closure (a network
decision) and an escalated run (a safety agent that failed), plus a report refused as input. For each, the page
shows the why beside each plan (binding findings with their clause) and what it will send (its messages and
contacts), the refused plans with their typed reasons, the Gantt, and the runs list by outcome; the operation board on
the fog's day, each with no serious or critical axe-core violation; a full-page screenshot of each (and of each decision's first screen) is written to $SKYMARSHAL_SCREENSHOTS
(`make screenshots` sets docs/screenshots), else under the test's temporary folder.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from boto3.dynamodb.conditions import Key
from console_fake import chromium_page
from test_console_one_screen_browser import _serious

from skymarshal.api.messages import messages_view
from skymarshal.api.views import decision_view
from skymarshal.data import schema as s
from skymarshal.local import workflow as local_workflow
from skymarshal.models.operational import Flight
from skymarshal.workflow.models import ApprovalDecision

REPORTS = {
    "ey123": "Flight EY123 on January 20th 2027 had a mechanical failure",
    "ey101": "EY101 on 21 January 2027 is delayed over four hours and the crew will run out of duty time",
    "auh-fog": "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd 2027",
    "refused": "the coffee machine in the crew room is broken again",
}
ESCALATED = "Flight EY123 on January 20th 2027 had a mechanical failure"


def _sick_captain(account) -> str:
    """A sick captain on the first scheduled departure from the hub on 21 January (the seeded airline's)."""
    handle = account.handle()
    flights = [
        Flight.model_validate(r)
        for r in handle.query(s.FLIGHTS, Key("aircraft_type").eq("A320"), index=s.TYPE_DEPARTURE_INDEX)
    ]
    hub = sorted(
        (f for f in flights if f.origin == "AUH" and str(f.flight_date) == "2027-01-21" and f.status == "SCHEDULED"),
        key=lambda f: f.scheduled_departure,
    )
    return f"The captain of {hub[0].flight_number} on January 21st 2027 called in sick two hours before departure"


def _settle(wf, names) -> None:
    for name in names:
        deadline = time.monotonic() + 900
        while wf.describe(name)["status"] == "RUNNING" and not wf.pending(name) and time.monotonic() < deadline:
            time.sleep(1)


@pytest.fixture(scope="module")
def runs(wf, account):
    """The runs, each left where a duty manager finds it; rejected at the end (conftest's module_learning removes
    their learning records)."""
    registry = local_workflow.registry()

    def crew_agent_down(name, handler, event):
        if name.startswith("FunctionsAgentcrewcompliance"):
            raise RuntimeError("injected: the crew compliance agent is down")
        return handler(event, local_workflow._Context(name))

    stamp = f"{int(time.time()) % 100_000}"
    registry.wrap = crew_agent_down  # only while the escalated run goes through its rounds
    try:
        escalated = wf.start(ESCALATED, disruption_id=f"shots-escalated-{stamp}")["execution_name"]
        wf.follow(escalated, timeout_s=900)
    finally:
        registry.wrap = None
    names = {"escalated": escalated}
    for key, prompt in {**REPORTS, "sick-crew": _sick_captain(account)}.items():
        names[key] = wf.start(prompt, disruption_id=f"shots-{key}-{stamp}")["execution_name"]
    _settle(wf, names.values())
    yield names
    for name in names.values():
        if wf.pending(name):
            wf.decide(name, ApprovalDecision(action="reject", decided_by="test", comment="screenshots taken"))
    for name in names.values():
        deadline = time.monotonic() + 300
        while wf.describe(name)["status"] == "RUNNING" and time.monotonic() < deadline:
            time.sleep(0.5)


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    wanted = os.environ.get("SKYMARSHAL_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(server):
    with chromium_page() as tab:
        tab.goto(server)
        tab.get_by_test_id("login-DutyManager").click()
        tab.get_by_test_id("who").filter(has_text="(DutyManager)").wait_for()
        yield tab


def _open(page, name: str) -> None:
    page.evaluate("(run) => { location.hash = ''; location.hash = run; }", name)
    page.locator("#run-id").filter(has_text=name).wait_for(timeout=30_000)


def _check_sends(page, plan) -> None:
    """Beside the first card, what its plan will send: its totals and its first messages, as the API answers."""
    sends = page.get_by_test_id("sends-1")
    sends.wait_for(timeout=60_000)
    totals = sends.locator(".sends-totals").inner_text()
    assert totals.startswith(f"{plan.totals.messages} message"), totals
    shown = sends.locator(":scope > figure.outbound pre").all_inner_texts()
    assert shown == [m.text for m in plan.messages[: len(shown)]] and len(shown) == min(4, len(plan.messages))


@pytest.mark.parametrize("key", ["ey123", "ey101", "sick-crew", "auh-fog"])
def test_each_decision_shows_its_why_refusals_and_gantt(page, wf, runs, out_dir, key):
    name = runs[key]
    output = wf.decision(name)
    assert output is not None, (key, wf.describe(name).get("cause"))
    view = decision_view(name, output, awaiting_approval=True, attempt=1)
    _open(page, name)
    if view.top:
        page.get_by_test_id("findings-1").wait_for(state="attached", timeout=120_000)
        clauses = page.get_by_test_id("findings-1").locator("tbody td:nth-child(3)").all_text_contents()
        assert all(c.strip() for c in clauses)  # every finding names its clause
        rows = page.get_by_test_id("findings-1").locator("tbody tr").count()
        assert rows == len(view.top[0].findings) <= len(view.top[0].compliance)
        if view.network is None:
            assert rows, "a one-flight plan is held to binding findings"
            page.get_by_test_id("findings-1").locator("xpath=..").locator("summary").first.click()  # shown open
        page.locator("#gantt-chart svg").wait_for(timeout=120_000)
        _check_sends(page, messages_view(wf, name).plans[0])
    else:  # no legal plan: escalated, said at the top
        page.get_by_test_id("escalations").locator(".escalation").first.wait_for(timeout=120_000)
    refused = sum(len(g.plans) for g in view.refused)
    if refused:
        assert page.get_by_test_id("refused").locator("h3").inner_text() == f"Plans refused ({refused})"
    if view.top and key == "auh-fog":  # issue 50: the decision on its first screen, Approve in reach of the keyboard
        page.evaluate("window.scrollTo(0, 0)")
        box = page.get_by_test_id("approve-top").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 900, box
        page.locator("header h1").click()  # the keyboard's walk starts at the top of the page
        stops = []
        for _ in range(10):
            page.keyboard.press("Tab")
            stops.append(page.evaluate("document.activeElement.dataset.testid || document.activeElement.tagName"))
        assert "approve-top" in stops, stops
        assert not _serious(page), "axe-core on the real fog decision"
    page.screenshot(path=str(out_dir / f"{key}.png"), full_page=True)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out_dir / f"{key}-first-screen.png"))  # what a duty manager sees at 1440×900


def test_the_board_on_the_fog_closures_day(page, runs, out_dir):
    """The landing view on the AUH fog closure's day, the runs waiting listed on it (issue 50)."""
    page.get_by_test_id("board-svg").wait_for(timeout=60_000)
    page.get_by_test_id("board-day").fill("2027-01-22")
    page.get_by_test_id("board-day").dispatch_event("change")
    page.get_by_test_id("board-status").filter(has_text="2027-01-22:").wait_for(timeout=60_000)
    fog = page.get_by_test_id("board-disruptions").locator(f"a[data-run='{runs['auh-fog']}']")
    fog.wait_for(timeout=30_000)
    assert not _serious(page), "axe-core on the board of the fog's day"
    page.screenshot(path=str(out_dir / "board.png"))


def test_the_escalated_run_and_the_runs_list_by_outcome(page, wf, runs, out_dir):
    assert wf.output(runs["escalated"])["outcome"]["status"] == "escalated"
    _open(page, runs["escalated"])
    page.get_by_test_id("outcome").filter(has_text="Outcome: escalated").wait_for(timeout=60_000)
    banner = page.get_by_test_id("run-escalation").locator(".escalation[data-code='SAFETY_AGENT_FAILED']")
    assert "What you can do" in banner.inner_text()
    page.get_by_test_id("alerts").locator(f"a[data-run='{runs['escalated']}']").wait_for(timeout=30_000)
    page.screenshot(path=str(out_dir / "escalated.png"), full_page=True)
    page.locator("#refresh").click()
    lines = page.get_by_test_id("runs").locator("li")
    escalated = page.get_by_test_id("runs").locator(f"li:has(a[data-run='{runs['escalated']}'])")
    assert escalated.locator(".outcome").inner_text() == "escalated"
    refused = page.get_by_test_id("runs").locator(f"li:has(a[data-run='{runs['refused']}'])")
    assert refused.locator(".outcome").inner_text() == "refused as input"
    outcomes = [lines.nth(i).get_attribute("data-outcome") for i in range(lines.count())]
    waiting = [o == "awaiting_decision" for o in outcomes]
    assert any(waiting) and waiting == sorted(waiting, reverse=True)  # awaiting your decision first
    page.get_by_test_id("runs").screenshot(path=str(out_dir / "runs.png"))
