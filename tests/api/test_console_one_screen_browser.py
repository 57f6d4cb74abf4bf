"""A decision on one screen, usable by keyboard (issue 50, items 2 and 3), in headless Chromium at 1440×900 on a
canned API (console_fake): the AUH fog closure's decision is titled by what happened, its first screen holds the
recommended plan with its numbers, the why in three lines and Approve (times in UTC, the station's beside), which is within the first ten Tab stops
(no exclude checkbox, no Gantt bar before it); the per-flight table, the refused plans, the agents, checkpoints
and audit are folded; times are UTC; and axe-core (pinned in package.json) finds no serious or critical
violation on the decision nor on the operation board."""

from __future__ import annotations

from pathlib import Path

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from network_sample import WINDOW, network_decision
from test_console_board_browser import _boards
from test_console_why_browser import RUN, progress

from skymarshal.api.plans import gantt_view
from skymarshal.api.views import decision_view
from skymarshal.arbitration.plans.network import network_output
from skymarshal.arbitration.ranking import RankingWeights
from skymarshal.models.disruption import Disruption, Fact, Scope

pytestmark = pytest.mark.enable_socket
REPORT = "Abu Dhabi airport is closed by fog from 14:00 to 17:00 UTC on January 22nd 2027"
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
PHASES = [
    {"key": "validate", "label": "Validate the report", "started_at": "2027-01-22T12:00:05Z", "seconds": 1.2},
    {"key": "approval", "label": "Awaiting your decision", "started_at": "2027-01-22T12:02:11Z", "seconds": None},
]


def _fog_output() -> dict:
    """The sample closure, read from the report as intake reads it: the cause stated in its own word, "fog"."""
    fog = Fact(name="weather", value=71, source="stated", evidence="fog", span=(31, 34))
    disruption = Disruption.of_code(
        71, cause="fog", scope=Scope(kind="airport", airport="AUH"), window=WINDOW, facts=[fog]
    )
    return network_output(network_decision(), disruption, RankingWeights()).model_dump(mode="json")


def open_fog(page, api, role: str = "DutyManager") -> None:
    output = _fog_output()
    view = decision_view(RUN, output, awaiting_approval=True, attempt=1)
    api.answer("GET", f"/api/disruptions/{RUN}", progress(prompt=REPORT, phases=PHASES))
    api.answer("GET", f"/api/disruptions/{RUN}/gantt", gantt_view(None, RUN, output).model_dump(mode="json"))  # type: ignore[arg-type]
    api.push(RUN, "scenarios", view.model_dump(mode="json"))
    sign_in(page, role, run=RUN)
    page.get_by_test_id("glance").locator("h3").wait_for(timeout=20_000)
    page.locator("#gantt-chart svg").wait_for(timeout=20_000)


def _tab_stops(page, count: int) -> list[dict]:
    """The first `count` Tab stops from the top of the page: what each is. A click on the page's title (not focusable)
    starts the keyboard's walk there, as a fresh page's first Tab would."""
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("header h1").click()
    stops = []
    for _ in range(count):
        page.keyboard.press("Tab")
        stops.append(
            page.evaluate(
                """() => { const e = document.activeElement;
                   return { testid: e.dataset?.testid || null, tag: e.tagName.toLowerCase(), type: e.type || null,
                            bar: !!e.closest('g.bar'), text: (e.textContent || '').trim().slice(0, 40) }; }"""
            )
        )
    return stops


def test_the_fog_closure_decision_fits_the_first_screen(console, fake_api):  # noqa: F811
    open_fog(console, fake_api)
    # what happened, in UTC with the station's local time beside (Abu Dhabi is UTC+4)
    assert (
        console.get_by_test_id("run-headline").inner_text() == "AUH closed by fog 14:00–17:00Z 22 Jan (18:00–21:00 AUH)"
    )
    assert console.get_by_test_id("run-id").inner_text() == RUN  # the id only as a detail beside the title
    glance = console.get_by_test_id("glance")
    assert glance.locator("h3").inner_text() == "Recommended: #1 Minimum delay"
    figures = console.get_by_test_id("glance-figures").inner_text()
    assert "195 min" in figures and "cancelled" in figures and "$84,000" in figures
    assert console.get_by_test_id("glance-why").locator("li").count() == 3
    approve = console.get_by_test_id("approve-top")
    box = approve.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 900, box  # on the first screen at 1440×900
    for testid in ("choose-another", "reject"):
        assert console.get_by_test_id(testid).bounding_box()["y"] < 900  # type: ignore[index]
    # what a duty manager does not need to decide is one click away, folded
    assert not console.get_by_test_id("flight-table").is_visible()
    assert not console.locator("#agents").is_visible()
    assert console.locator("#history").get_attribute("open") is None
    assert console.locator("#audit").get_attribute("open") is None
    console.get_by_test_id("flights-fold").locator("summary").click()
    assert console.get_by_test_id("flight-table").is_visible()


def test_approve_is_within_the_first_ten_tab_stops(console, fake_api):  # noqa: F811
    open_fog(console, fake_api)
    stops = _tab_stops(console, 10)
    at = next((i for i, s in enumerate(stops) if s["testid"] == "approve-top"), None)
    assert at is not None, stops
    before = stops[:at]
    assert not [s for s in before if s["type"] == "checkbox" or s["bar"]], before
    # Enter on it asks for the confirmation, with the safe choice focused
    _tab_stops(console, at + 1)
    console.keyboard.press("Enter")
    dialog = console.get_by_test_id("confirm")
    dialog.wait_for(state="visible")
    assert "Approve plan #1" in dialog.inner_text()
    assert console.evaluate("document.activeElement.value") == "cancel"
    console.keyboard.press("Escape")
    assert not [r for r in fake_api.requests if r[1].endswith("/approve")]


def test_the_gantt_is_one_tab_stop_walked_by_arrow_keys(console, fake_api):  # noqa: F811
    open_fog(console, fake_api)
    bars = console.locator("#gantt-chart g.bar.plan")
    assert bars.count() > 1
    tabbable = console.locator('#gantt-chart g.bar.plan[tabindex="0"]')
    assert tabbable.count() == 1
    tabbable.focus()
    first = console.evaluate("document.activeElement.getAttribute('aria-label')")
    console.keyboard.press("ArrowRight")
    second = console.evaluate("document.activeElement.getAttribute('aria-label')")
    assert second and second != first
    assert console.locator('#gantt-chart g.bar.plan[tabindex="0"]').count() == 1


def test_every_approve_is_named_by_its_words_and_times_are_utc(console, fake_api):  # noqa: F811
    open_fog(console, fake_api)
    for button in console.locator("button.approve").all():
        name = button.get_attribute("aria-label")
        assert name is None or button.inner_text() in name, name
    console.locator("#run-steps > summary").click()
    assert [t.strip() for t in console.locator("#phases time").all_inner_texts()] == ["12:00:05Z", "12:02:11Z"]
    assert [t.strip() for t in console.locator("#phases .beside").all_inner_texts()] == ["(16:00 AUH)", "(16:02 AUH)"]
    assert "2027-01-20 07:00Z" in console.locator("#run-started").inner_text()


def test_a_duty_manager_reading_station_time_sees_it_first_everywhere(console, fake_api):  # noqa: F811
    """The header's Times choice: station local first, UTC beside — the title, the phases; kept after a reload."""
    open_fog(console, fake_api)
    console.get_by_test_id("zone").select_option("station")
    headline = console.get_by_test_id("run-headline")
    headline.filter(has_text="AUH closed by fog 18:00–21:00 AUH (14:00–17:00Z 22 Jan)").wait_for(timeout=20_000)
    console.locator("#run-steps > summary").click()
    assert [t.strip() for t in console.locator("#phases time").all_inner_texts()] == ["16:00 AUH", "16:02 AUH"]
    assert [t.strip() for t in console.locator("#phases .beside").all_inner_texts()] == ["(12:00:05Z)", "(12:02:11Z)"]
    console.get_by_test_id("zone").select_option("utc")
    headline.filter(has_text="14:00–17:00Z 22 Jan (18:00–21:00 AUH)").wait_for(timeout=20_000)
    console.get_by_test_id("zone").select_option("station")
    console.reload()  # the choice is kept in this browser
    console.get_by_test_id("who").filter(has_text="(DutyManager)").wait_for(timeout=20_000)
    assert console.get_by_test_id("zone").input_value() == "station"


def test_late_cancelled_and_swapped_differ_by_pattern_and_words(console, fake_api):  # noqa: F811
    open_fog(console, fake_api)
    seen = {}
    for change in ("delayed", "cancelled", "swapped_in"):
        bar = console.locator(f"#gantt-chart g.bar.plan[data-change={change}]").first
        fill = bar.locator("rect.pattern").get_attribute("fill")
        seen[change] = (fill, bar.locator("title").text_content())
    fills = [fill for fill, _ in seen.values()]
    assert all(fills) and len(set(fills)) == 3, seen  # a pattern each, not only a colour
    assert "delayed" in seen["delayed"][1] and "cancelled" in seen["cancelled"][1] and "swap" in seen["swapped_in"][1]


def _serious(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
             .filter((v) => ['serious', 'critical'].includes(v.impact))
             .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }))"""
    )
    return found


def test_axe_finds_no_serious_violation_on_a_decision(console, fake_api):  # noqa: F811
    assert AXE.is_file(), "axe-core is not installed: `make node_modules` (npm install) installs it"
    open_fog(console, fake_api)
    console.get_by_test_id("flights-fold").locator("summary").click()  # the checkboxes too
    found = _serious(console)
    assert not found, found


def test_axe_finds_no_serious_violation_on_the_board(console, fake_api):  # noqa: F811
    waiting, _ = _boards()
    fake_api.answer("GET", "/api/operations", waiting)
    sign_in(console, "DutyManager")
    console.get_by_test_id("board-svg").wait_for()
    found = _serious(console)
    assert not found, found


def test_at_200_percent_zoom_nothing_scrolls_sideways(console, fake_api):  # noqa: F811
    """1440×900 at 200 % zoom is a 720×450 CSS-pixel viewport: one column, and Approve still reached first."""
    console.set_viewport_size({"width": 720, "height": 450})
    open_fog(console, fake_api)
    console.get_by_test_id("flights-fold").locator("summary").click()  # the widest table: eleven columns
    wide = console.evaluate("document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth")
    assert wide <= 0, f"the page scrolls {wide} px sideways"
    stops = [s["testid"] for s in _tab_stops(console, 10)]
    assert "approve-top" in stops, stops
