"""Correcting a misread report from the console's facts panel, in headless Chromium on a canned API (console_fake):
the panel says what the reading is unsure of, the duty manager changes the misread code, confirms, and the console
sends only what changed to POST /disruptions/{run}/correct and opens the new run, whose facts show the correction
with who made it and what had been read. A refusal is shown on its one line; an observer gets no form."""

from __future__ import annotations

import pytest
from console_fake import console, fake_api, sign_in  # noqa: F401  (fixtures)
from decision_sample import decision_output
from intake.test_disruption_facts import KNOWN, flight
from test_console_why_browser import progress

from skymarshal.api.views import decision_view
from skymarshal.intake.corrected_facts import corrected_disruption, with_unsure
from skymarshal.intake.disruption_facts import flight_disruption
from skymarshal.intake.report import read_report

pytestmark = pytest.mark.enable_socket
RUN = "facts-ey124"
AGAIN = f"{RUN}--correct-1"
# A fuel bowser that cannot uplift: ramp handling (AHM 36). Written so the reader is unsure of it.
REPORT = "EY124 on January 20th: something failed at the pump, no uplift for about two hours"


def misread() -> dict:
    return with_unsure(flight_disruption(read_report(REPORT, KNOWN), flight())).model_dump(mode="json")


def view(disruption: dict, run: str) -> dict:
    output = decision_output() | {"disruption": disruption}
    return decision_view(run, output, awaiting_approval=True, attempt=1).model_dump(mode="json")


def open_run(page, api, run: str, disruption: dict, role: str = "DutyManager") -> None:
    api.answer("GET", f"/api/disruptions/{run}", progress(disruption_id=run, prompt=REPORT))
    api.push(run, "scenarios", view(disruption, run))
    sign_in(page, role, run=run)
    page.get_by_test_id("facts-table").wait_for(timeout=20_000)


def test_a_duty_manager_corrects_the_misread_cause_and_the_run_is_analysed_again(console, fake_api):  # noqa: F811
    read = misread()
    assert read["unsure"], "the reading should be unsure of this report"
    open_run(console, fake_api, RUN, read)
    assert "Unsure of the reading" in console.get_by_test_id("facts-unsure").inner_text()
    fixed = corrected_disruption(
        flight_disruption(read_report(REPORT, KNOWN), flight()), {"code": "36"}, [flight()], "Dev DutyManager"
    )
    fake_api.answer(
        "POST", f"/api/disruptions/{RUN}/correct", {"disruption_id": RUN, "execution_name": AGAIN, "started": True}, 202
    )
    fake_api.answer("GET", f"/api/disruptions/{AGAIN}", progress(disruption_id=AGAIN, prompt=REPORT))
    fake_api.push(AGAIN, "scenarios", view(fixed.model_dump(mode="json"), AGAIN))

    console.get_by_test_id("correct-code").fill("36")
    console.get_by_test_id("correct-submit").click()
    assert "code: " in console.get_by_test_id("confirm").inner_text()
    console.get_by_test_id("confirm-yes").click()
    console.locator("#run-id").filter(has_text=AGAIN).wait_for(timeout=20_000)
    posted = [body for method, path, body in fake_api.requests if path.endswith("/correct")]
    assert posted == [{"facts": {"code": "36"}}]  # only what changed
    corrected = console.get_by_test_id("facts-corrected")
    corrected.wait_for(timeout=20_000)
    assert f"corrected code: {read['iata_delay_code']} → 36 by Dev DutyManager" in corrected.inner_text()
    assert "code 36" in console.get_by_test_id("facts-cause").inner_text()
    assert console.get_by_test_id("facts-unsure").count() == 0


def test_a_refused_correction_shows_its_one_line_and_nothing_moves(console, fake_api):  # noqa: F811
    open_run(console, fake_api, RUN, misread())
    line = "crew_position=CAPTAIN: the cause (code 41) is not the crew's; correct the code too (e.g. code=64)"
    fake_api.answer("POST", f"/api/disruptions/{RUN}/correct", {"statusCode": 400, "message": line}, 400)
    # an unsure reading opens the form: the question is asked, not left in a fold
    assert console.locator("details.facts-correct-box").get_attribute("open") is not None
    console.get_by_test_id("correct-crew_position").select_option("CAPTAIN")
    console.get_by_test_id("correct-submit").click()
    console.get_by_test_id("confirm-yes").click()
    console.get_by_test_id("correct-error").filter(has_text=line).wait_for(timeout=20_000)
    assert console.locator("#run-id").inner_text() == RUN
    # nothing changed is nothing sent
    console.get_by_test_id("correct-crew_position").select_option("")
    console.get_by_test_id("correct-submit").click()
    assert "Nothing changed" in console.get_by_test_id("correct-error").inner_text()
    assert len([p for _, p, _ in fake_api.requests if p.endswith("/correct")]) == 1


def test_an_observer_sees_what_is_unsure_but_no_correction_form(console, fake_api):  # noqa: F811
    open_run(console, fake_api, RUN, misread(), role="Observer")
    assert console.get_by_test_id("facts-unsure").count() == 1
    assert console.get_by_test_id("facts-correct").count() == 0
