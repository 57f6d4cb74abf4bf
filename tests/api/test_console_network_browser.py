"""A network decision in headless Chromium on a canned API (console_fake), the AUH fog closure: the before/after
Gantt is drawn for network plans too (the closure band, the tails the plan touches), nothing prints a stray
"null", the totals label the total and the longest delay and star the best, and a reason box appears only for a
flight ticked to be excluded."""

from __future__ import annotations

import re

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from network_sample import RETIMED, network_output_dict
from test_console_why_browser import progress

from skymarshal.api.plans import gantt_view
from skymarshal.api.views import decision_view

pytestmark = pytest.mark.enable_socket
RUN = "why-ey123"  # progress() is for this run


def open_network(page, api) -> None:
    output = network_output_dict()
    view = decision_view(RUN, output, awaiting_approval=True, attempt=1)
    api.answer("GET", f"/api/disruptions/{RUN}", progress())
    api.answer("GET", f"/api/disruptions/{RUN}/gantt", gantt_view(None, RUN, output).model_dump(mode="json"))  # type: ignore[arg-type]
    api.push(RUN, "scenarios", view.model_dump(mode="json"))
    sign_in(page, "DutyManager", run=RUN)
    page.get_by_test_id("network-totals").wait_for(timeout=20_000)


def test_a_network_decision_has_its_gantt_with_the_closure(console, fake_api):  # noqa: F811
    open_network(console, fake_api)
    chart = console.locator("#gantt-chart svg")
    chart.wait_for(timeout=20_000)
    assert console.locator("#gantt").is_visible()
    text = chart.text_content() or ""
    assert "A6-EIA" in text and "A6-EIB" in text and "closure AUH" in text
    assert "Closure at AUH · Plan #1" in (console.locator("#gantt-chart").text_content() or "")
    assert console.get_by_test_id("compare").is_visible()


def test_nothing_prints_null_and_the_totals_are_labelled(console, fake_api):  # noqa: F811
    open_network(console, fake_api)
    console.locator("#gantt-chart svg").wait_for(timeout=20_000)
    shown = console.locator("#decision").inner_text()
    found = re.search(r"\bnull|undefined|NaN", shown)
    assert not found, shown[max(0, found.start() - 200) : found.end() + 50]
    heads = console.get_by_test_id("network-totals").locator("tr").first.inner_text()
    assert "total delay (min)" in heads and "longest delay (min)" in heads
    assert "longest departure delay 195 min" in console.locator("article[data-rank='1'] .figures").inner_text()


def test_a_reason_box_only_for_a_ticked_flight(console, fake_api):  # noqa: F811
    open_network(console, fake_api)
    console.get_by_test_id("flights-fold").locator("summary").click()  # the per-flight table is folded
    reasons = console.locator("input.exclude-reason")
    assert reasons.count() == 3 and all(not reasons.nth(i).is_visible() for i in range(3))
    console.get_by_test_id(f"exclude-{RETIMED}").check()
    assert console.get_by_test_id(f"exclude-reason-{RETIMED}").is_visible()
    assert sum(reasons.nth(i).is_visible() for i in range(3)) == 1


def test_the_rejected_network_plans_are_listed_with_their_flights_reasons(console, fake_api):  # noqa: F811
    open_network(console, fake_api)
    console.get_by_test_id("refused-fold").locator("summary").first.click()  # folded below the plans
    group = console.get_by_test_id("refused").locator("details.refused-group[data-code='CLOSED_AIRPORT']")
    assert "moves at the airport while it is closed — CLOSED_AIRPORT (1)" in group.locator("summary").inner_text()
    assert "Fly as scheduled" in (group.text_content() or "") and "inside the closure" in (group.text_content() or "")
    assert "validated with zero tolerance" in console.get_by_test_id("findings-1").inner_text()
