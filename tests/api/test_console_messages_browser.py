"""What the decision sends (issue 36), in headless Chromium on a canned API (console_fake): beside each plan card
before approval, its ASM/MVT messages as sent (monospace, line for line) and who must be told — crew, stations,
passengers by group — with the names folded; the approval's confirmation says it; once executed, what was sent
under the execution and nothing left beside the cards; an API that cannot answer is one line, the cards stay."""

from __future__ import annotations

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from decision_sample import decision_output
from messages_sample import after_execution, before_approval, cancel, delay
from test_console_why_browser import RUN, progress

from skymarshal.api.views import decision_view
from skymarshal.messages import formats as fmt

pytestmark = pytest.mark.enable_socket
PATH = f"/api/disruptions/{RUN}/messages"


def open_waiting(page, api, *, messages: dict | None = None) -> None:
    if messages is not None:
        api.answer("GET", PATH, messages)
    api.answer("GET", f"/api/disruptions/{RUN}", progress())
    view = decision_view(RUN, decision_output(), awaiting_approval=True, attempt=1)
    api.stream(RUN, ("scenarios", view.model_dump(mode="json")))
    sign_in(page, "DutyManager", run=RUN)
    page.get_by_test_id("approve-1").wait_for(timeout=20_000)


def test_the_canned_messages_are_valid_as_sent():
    for plan in before_approval(RUN)["plans"]:
        for m in plan["messages"]:
            assert (fmt.problems_asm if m["standard"] == "ASM" else fmt.problems_mvt)(m["text"]) is None, m


def test_the_swap_card_shows_its_two_asm_eqt_messages_and_who_is_told(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api, messages=before_approval(RUN))
    sends = console.get_by_test_id("sends-1")
    sends.wait_for(timeout=20_000)
    assert sends.locator("h5").inner_text() == "What this plan will send"
    assert sends.locator(".sends-totals").inner_text() == (
        "2 messages (2 ASM EQT); tell 0 crew, 2 stations, 0 passengers"
    )
    figures = sends.locator("figure.outbound")
    assert [figures.nth(i).get_attribute("data-flight") for i in range(figures.count())] == ["EY123", "EY124"]
    assert {figures.nth(i).get_attribute("data-action") for i in range(2)} == {"EQT"}
    # the text exactly as sent, line for line, in monospace
    assert figures.first.locator("pre").inner_text() == "ASM\nUTC\nEQT TECH\nEY123/20JAN27\nJ 789 .J28Y262 A6BLT"
    assert "monospace" in figures.first.locator("pre").evaluate("p => getComputedStyle(p).fontFamily")
    assert "ASM EQT EY124 — flown by A6-BLT (B789) · to FRA, AUH" in figures.nth(1).locator("figcaption").inner_text()
    stations = sends.locator("dd.stations")
    assert stations.locator("details").get_attribute("open") is None  # the names are folded
    stations.locator("summary").click()
    assert stations.locator("li").all_inner_texts() == ["AUH EY123, EY124", "FRA EY123, EY124"]
    assert sends.locator("dd.crew").inner_text() == "none" and sends.locator("dd.passengers").inner_text() == "none"


def test_the_other_cards_count_crew_and_passengers_by_group(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api, messages=before_approval(RUN))
    delay = console.get_by_test_id("sends-2")
    delay.wait_for(timeout=20_000)
    assert delay.locator("figure.outbound pre").inner_text() == "MVT\nEY123/20.A6BLA.AUH\nED201130\nDL41/0230"
    crew = delay.locator("dd.crew")
    assert crew.locator("summary").inner_text() == "names" and crew.inner_text().startswith("3 — 3 delayed")
    crew.locator("summary").click()
    assert (
        crew.locator("li").count() == 3
        and "C0301 EY123 delayed: EY123 AUH-FRA" in crew.locator("li").nth(2).inner_text()
    )
    assert delay.locator("dd.passengers").inner_text() == "231 — 231 delayed"
    cancel = console.get_by_test_id("sends-3")
    assert (
        cancel.locator(".sends-totals").inner_text() == "1 message (1 ASM CNL); tell 3 crew, 2 stations, 231 passengers"
    )
    assert cancel.locator("dd.passengers").inner_text() == "231 — 180 rebooked, 51 rebooked on another airline"
    groups = cancel.locator(".passenger-groups li")
    assert groups.nth(0).locator("strong").inner_text() == "180 rebooked onto EY125"
    assert cancel.locator("dd.crew").inner_text().startswith("3 — 3 released")


def test_the_approval_confirmation_says_what_it_sends(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api, messages=before_approval(RUN))
    console.get_by_test_id("sends-1").wait_for(timeout=20_000)
    console.get_by_test_id("approve-1").click()
    details = console.locator("#confirm-details").inner_text()
    assert "It sends 2 messages (2 ASM EQT); tell 0 crew, 2 stations, 0 passengers." in details
    console.get_by_test_id("confirm-cancel").click()


def test_once_executed_the_page_shows_what_was_sent(console, fake_api):  # noqa: F811
    open_waiting(console, fake_api, messages=before_approval(RUN))
    console.get_by_test_id("sends-1").wait_for(timeout=20_000)
    recorded = {"disruption_id": RUN, "action": "approve", "decided_by": "Dev DutyManager",
                "decided_at": "2027-01-20T07:05:00+00:00", "scenario_id": "tail_swap:A6-BLT"}  # fmt: skip
    fake_api.answer("POST", f"/api/disruptions/{RUN}/approve", recorded)
    fake_api.answer("GET", PATH, after_execution(RUN))
    console.get_by_test_id("approve-1").click()
    console.get_by_test_id("confirm-yes").click()
    fake_api.push(RUN, "done", {"status": "SUCCEEDED", "outcome": {"status": "executed", "message": "executed"}})
    sent = console.get_by_test_id("sent-messages")
    sent.wait_for(timeout=20_000)
    assert sent.locator("h5").inner_text() == "What was sent"
    assert sent.locator("figure.outbound").count() == 2 and "EQT TECH" in sent.locator("pre").first.inner_text()
    assert console.locator("#cards section.sends").count() == 0  # no "will send" left beside the cards


def test_a_run_opened_after_execution_shows_what_was_sent(console, fake_api):  # noqa: F811
    fake_api.answer("GET", PATH, after_execution(RUN))
    fake_api.answer("GET", f"/api/disruptions/{RUN}", progress("done", status="SUCCEEDED", awaiting_approval=False))
    taken = decision_view(RUN, decision_output(), awaiting_approval=False, attempt=1)
    fake_api.answer("GET", f"/api/disruptions/{RUN}/decision", taken.model_dump(mode="json"))
    sign_in(console, "Observer", run=RUN)
    sent = console.get_by_test_id("sent")
    sent.locator("figure.outbound").first.wait_for(timeout=20_000)
    assert sent.locator(".sends-totals").inner_text().startswith("2 messages (2 ASM EQT)")


def test_no_answer_is_one_line_and_the_cards_stay(console, fake_api):  # noqa: F811
    fake_api.answer("GET", PATH, {"message": "run 'why-ey123' has no decision yet"}, status=404)
    open_waiting(console, fake_api)
    status = console.get_by_test_id("messages-status")
    status.filter(has_text="What the plans will send is not available: run 'why-ey123' has no decision yet").wait_for()
    assert console.get_by_test_id("cards").locator("article").count() == 3
    assert console.locator("#cards section.sends").count() == 0


def test_a_plan_sending_dozens_shows_the_first_few_and_folds_the_rest(console, fake_api):  # noqa: F811
    one = delay()
    message, group = one.messages[0], one.passengers[0]
    numbers = [f"EY{n}" for n in range(201, 207)]
    many = one.model_copy(
        update={
            "messages": [message.model_copy(update={"flight_number": n}) for n in numbers],
            "passengers": [group.model_copy(update={"flight_number": n}) for n in numbers],
            "totals": one.totals.model_copy(update={"messages": 6, "passengers": 6 * group.passengers}),
        }
    )
    answer = before_approval(RUN)
    answer["plans"][1] = many.model_dump(mode="json")
    open_waiting(console, fake_api, messages=answer)
    sends = console.get_by_test_id("sends-2")
    sends.wait_for(timeout=20_000)
    shown = sends.locator(":scope > figure.outbound")
    assert [shown.nth(i).get_attribute("data-flight") for i in range(shown.count())] == numbers[:4]
    folded = sends.locator(":scope > details")
    assert folded.locator("summary").all_inner_texts() == ["2 more messages", "2 more passenger groups"]
    assert folded.nth(0).get_attribute("open") is None and folded.nth(0).locator("figure.outbound").count() == 2
    assert sends.locator(":scope > ul.passenger-groups li").count() == 4
    assert sends.locator(".sends-totals").inner_text().startswith("6 messages (6 MVT ED)")


def test_a_crew_member_released_from_two_sectors_is_counted_once(console, fake_api):  # noqa: F811
    plan = cancel()
    second = [c.model_copy(update={"flight_id": "EY124-20270120", "flight_number": "EY124"}) for c in plan.crew]
    answer = before_approval(RUN)
    answer["plans"][2] = plan.model_copy(update={"crew": [*plan.crew, *second]}).model_dump(mode="json")
    open_waiting(console, fake_api, messages=answer)
    crew = console.get_by_test_id("sends-3").locator("dd.crew")
    crew.wait_for(timeout=20_000)
    assert crew.inner_text().startswith("3 — 3 released")
    crew.locator("summary").click()
    assert crew.locator("li").count() == 6  # each sector's notification is listed
