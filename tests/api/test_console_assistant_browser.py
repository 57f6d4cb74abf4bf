"""The operations assistant's answer in headless Chromium on a canned stream (console_fake): when the panel draws the
answer's airports as a table, the same table in the answer's text is not drawn a second time; a text-only answer
keeps its table."""

from __future__ import annotations

import pytest
from console_fake import console, fake_api, sign_in, sse  # noqa: F401  (fixtures)

pytestmark = pytest.mark.enable_socket
TEXT = "Airports near AUH:\n\n| Airport | Country | Runway | Distance | Curfew |\n|---|---|---|---|---|\n| DXB | AE | 13,124 ft | 60 nm | none |"
AIRPORTS = [{"iata": "DXB", "name": "Dubai", "country": "AE", "longest_runway_ft": 13124, "distance_nm": 60}]


def _ask(page, api, *events) -> None:
    api.answer("POST", "/api/assistant/chat/stream", sse(("message", {"delta": TEXT}), *events, ("done", {})))
    sign_in(page, "Observer")
    panel = page.get_by_test_id("assistant-panel")
    panel.locator("textarea").fill("airports near AUH")
    panel.locator("button[type=submit]").click()
    panel.locator(".sm-assistant-status").filter(has_text="Done").wait_for(timeout=20_000)


def test_a_table_the_panel_draws_is_not_drawn_twice(console, fake_api):  # noqa: F811
    payload = {"kind": "airport", "airports": AIRPORTS, "visualization": {"type": "table"}, "suggested_queries": []}
    _ask(console, fake_api, ("ui_payload", payload))
    panel = console.get_by_test_id("assistant-panel")
    assert panel.locator("table").count() == 1
    assert panel.locator(".sm-assistant-panel table").count() == 1 and "Airports near AUH" in panel.inner_text()


def test_a_text_only_answer_keeps_its_table(console, fake_api):  # noqa: F811
    _ask(console, fake_api)
    assert console.get_by_test_id("assistant-panel").locator(".sm-assistant-answer table").count() == 1
