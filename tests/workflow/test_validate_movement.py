"""A movement message at Validate, on the seeded airline: read by the message parser into the same facts a report
becomes and checked against the data the same way — a DIV puts the flight on the ground at the alternate (a stated
fact and the flight's row seen as DIVERTED), an MVT's delay code and duration are the cause and the hold; a tail or
station that is not the flight's, or a malformed message, is one line and starts nothing, and is parked in the
quarantine with that line."""

from __future__ import annotations

import pytest
from test_validate_corrections import NOW, Store

from skymarshal.data import queries as q
from skymarshal.data import schema as s
from skymarshal.workflow.quarantine import parked_items
from skymarshal.workflow.steps.validate import InvalidDisruption, validate
from skymarshal.workflow.tables import WorkflowTables


@pytest.fixture
def run(account, handle, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_ONE_RUN_PER_FLIGHT", "0")
    tables = WorkflowTables(account.resource(), account.naming)

    def start(message: str, facts: dict | None = None) -> dict:
        payload = {"disruption_id": "mvt-1", "prompt": message, "source": "eventbridge", "facts": facts or {}}
        return validate(payload, execution_name="mvt-1", handle=handle, tables=tables, store=Store(), now=NOW)[
            "request"
        ]

    return start


@pytest.fixture
def ey123(handle):
    flight = q.find_flight(handle, "EY123", NOW.date())
    assert flight is not None
    return flight


@pytest.fixture
def ey11(handle):
    """A flight the data holds no disruption for (EY123 is the demo's: its tail is already grounded)."""
    flight = q.find_flight(handle, "EY11", NOW.date())
    assert flight is not None and not flight.delay_reason
    return flight


def test_a_diversion_puts_the_flight_at_the_alternate(run, ey123):
    reg = ey123.aircraft_registration.replace("-", "")
    message = f"DIV\nEY123/20.{reg}.{ey123.origin}\nAD0815/0830 EA1010 MCT\nDR72\nSI FOG AT {ey123.destination}"
    request = run(message)
    disruption = request["disruption"]
    assert (disruption["iata_delay_code"], disruption["family"], disruption["scope"]["flights"]) == (
        72,
        "weather",
        [ey123.flight_id],
    )
    diverted = next(f for f in disruption["facts"] if f["name"] == "diverted_to")
    assert (diverted["value"], diverted["source"], diverted["evidence"]) == ("MCT", "stated", "EA1010 MCT")
    assert message[slice(*diverted["span"])] == "EA1010 MCT"
    [patch] = [p for p in request["overlay"]["patches"] if p["table"] == s.FLIGHTS and p["fact"] == "diverted_to"]
    assert patch["key"] == {"flight_id": ey123.flight_id}
    assert patch["fields"] == {"status": "DIVERTED", "diverted_to": "MCT"}
    assert request["description"] == "DIV EY123/20" and disruption["remarks"] == f"FOG AT {ey123.destination}"


@pytest.mark.parametrize(
    "report",
    [
        "EY123 on 20 January has diverted to Muscat with fog at {destination} and is on the ground there",
        "EY123/20JAN DIV MCT WX AT {destination}",
        "Fog at {destination}: EY123 20 Jan was diverted to MCT, passengers on board",
    ],
)
def test_a_diversion_in_prose_is_the_same_state_as_a_div(run, ey123, report):
    request = run(report.format(destination=ey123.destination))
    diverted = next(f for f in request["disruption"]["facts"] if f["name"] == "diverted_to")
    assert (diverted["value"], diverted["source"]) == ("MCT", "stated")
    assert request["disruption"]["scope"]["airport"] == "MCT"
    [patch] = [p for p in request["overlay"]["patches"] if p["table"] == s.FLIGHTS and p["fact"] == "diverted_to"]
    assert (patch["key"], patch["fields"]) == (
        {"flight_id": ey123.flight_id},
        {"status": "DIVERTED", "diverted_to": "MCT"},
    )


def test_a_delay_code_and_its_duration_are_the_cause_and_the_hold(run, ey11):
    request = run(f"MVT\nEY0011/20.{ey11.aircraft_registration.replace('-', '')}.{ey11.origin}\nDL41/0130")
    disruption = request["disruption"]
    assert (disruption["iata_delay_code"], disruption["severity_minutes"]) == (41, 90)
    assert [a["fact"] for a in request["overlay"]["additions"]] == ["aircraft_on_ground"]  # a defect grounds the tail
    stated = {f["name"]: f for f in disruption["facts"] if f["source"] == "stated"}
    assert stated["aircraft_defect"]["evidence"] == "DL41/0130"


def test_a_correction_applies_to_a_message_too(run, ey11):
    request = run(
        f"MVT\nEY11/20.{ey11.aircraft_registration.replace('-', '')}.{ey11.origin}\nDL41/0130", {"code": "36"}
    )
    assert request["disruption"]["iata_delay_code"] == 36
    assert [(c["key"], c["read"]) for c in request["disruption"]["corrections"]] == [("code", "41")]
    assert not request["overlay"]["additions"]  # the misread defect grounds nothing


@pytest.mark.parametrize(
    ("message", "line"),
    [
        ("MVT\nEY11/20.A6ZZZ.{origin}\nDL41/0030", "A6ZZZ is not its aircraft"),
        ("MVT\nEY11/20.{reg}.KBL\nDL41/0030", "not through KBL"),
        ("MVT\nEY11/20.{reg}.{origin}\nDL7X/0030", "DL7X: '7X' is not an IATA AHM 730 delay code"),
        ("MVT\nEY11/20.{reg}.{origin}", "no delay code (DL), no estimate (ED) and no diversion"),
        ("DIV\nEY11/20.{reg}.{origin}\nAD0815/0830 EA1010 {destination}\nDR72", "is its destination, not a diversion"),
        ("MVT\nEY9999/20.{reg}.{origin}\nDL41/0030", "EY9999 on 2027-01-20 is not in the schedule"),
        ("MVT\nEY11/20.{reg}.{origin}\nDL41/0030\nSI HYD LEAK FOUND AT {elsewhere}", "not through"),  # the SI's
    ],
)
def test_a_message_the_data_contradicts_is_one_line_and_is_parked(run, ey11, message, line, account):
    elsewhere = next(code for code in ("BOM", "KHI", "LHR") if code not in (ey11.origin, ey11.destination))
    text = message.format(
        reg=ey11.aircraft_registration.replace("-", ""),
        origin=ey11.origin,
        destination=ey11.destination,
        elsewhere=elsewhere,
    )
    with pytest.raises(InvalidDisruption, match=line.replace("(", r"\(").replace(")", r"\)")) as refused:
        run(text)
    assert "\n" not in str(refused.value)
    # never dropped silently: parked in the account's quarantine with its reason, as `skymarshal quarantine` lists it
    assert refused.value.parked
    newest = parked_items(tables=WorkflowTables(account.resource(), account.naming))[-1]
    assert (newest.source, newest.record, newest.reason) == ("mvt", text, str(refused.value))


def test_the_free_text_adds_what_the_elements_do_not_carry(run, ey11):
    reg = ey11.aircraft_registration.replace("-", "")
    request = run(f"MVT\nEY11/20.{reg}.{ey11.origin}\nED200930\nDL64/0045\nSI CPT SICK AT BRIEFING")
    disruption = request["disruption"]
    assert (disruption["iata_delay_code"], disruption["scope"]["kind"], disruption["scope"]["crew_position"]) == (
        64,
        "crew_member",
        "CAPTAIN",
    )
    assert [p["fields"] for p in request["overlay"]["patches"] if p["table"] == s.CREW_MEMBERS] == [{"status": "SICK"}]
    assert not [u for u in disruption["unsure"] if u["code"] == "LOW_CONFIDENCE"]  # the station coded the cause
