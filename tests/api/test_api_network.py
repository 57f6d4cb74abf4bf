"""A network decision through the API without a state machine: the per-flight tables in GET .../decision (through
the resolver, so the response is checked against its schema), and the duty manager's exclusions on POST
.../override — flight numbers read as the tables' flight ids, a flight in no table or a missing reason a 400 in
one line, and what reaches the workflow the ApprovalDecision the state machine reads."""

from __future__ import annotations

import json

import pytest
from network_sample import CANCELLED, RETIMED, network_output_dict
from pydantic import ValidationError

from skymarshal.api import app as api
from skymarshal.api.models import Override
from skymarshal.api.server import proxy_event
from skymarshal.api.views import decision_view, exclusion_ids, network_view
from skymarshal.workflow.models import ApprovalDecision

RUN = "net-1"
DUTY_MANAGER = {"cognito:username": "dm", "name": "Dev Duty Manager", "cognito:groups": "DutyManager"}


class FakeWorkflow:
    """The WorkflowClient calls the decision routes make, on one network run waiting for its duty manager."""

    def __init__(self, output: dict, pending: bool = True):
        self.output, self.waiting, self.answers = output, pending, []

    def describe(self, name):
        if name != RUN:
            from skymarshal.workflow.runs.client import RunNotFound

            raise RunNotFound(f"no run {name!r}")
        return {"status": "RUNNING"}

    def pending(self, name):
        return {"decision": json.dumps({"attempt": 2})} if self.waiting else None

    def decision(self, name):
        return self.output

    def decide(self, name, answer: ApprovalDecision):
        if not self.waiting:
            from skymarshal.workflow.approvals import NoPendingApproval

            raise NoPendingApproval(f"execution {name!r} has no approval request")
        self.answers.append(answer)
        return json.loads(answer.model_dump_json())


@pytest.fixture
def send():
    """send(fake, method, path, body) -> (status, body) through the API Lambda's resolver, as a duty manager."""
    saved = api._client_factory, api._client

    def call(fake: FakeWorkflow, method: str, path: str, body=None):
        api.configure(lambda: fake)
        event = proxy_event(
            method,
            path,
            body=None if body is None else json.dumps(body),
            claims=DUTY_MANAGER,
            headers={"content-type": "application/json"},
        )
        result = api.handle(event, None)
        return result["statusCode"], json.loads(result["body"])

    yield call
    api._client_factory, api._client = saved


def test_the_decision_view_has_every_plans_table_recommended_first():
    view = decision_view(RUN, network_output_dict(), awaiting_approval=True, attempt=1)
    network = view.network
    assert network is not None and network.summary == "closure at AUH 22 Jan 14:00–17:00Z"
    assert network.recommended == "network:min_delay" == view.top[0].scenario_id
    valid, rejected = network.plans
    assert (valid.plan_id, valid.valid, valid.rank) == ("network:min_delay", True, 1)
    assert (rejected.valid, rejected.rank, rejected.rejections[0].code) == (False, None, "CLOSED_AIRPORT")
    retimed, swapped, cancelled = valid.rows
    assert (retimed.action, retimed.delay_minutes, retimed.crew_changes[0].reserve) == ("retime", 195, "S01")
    assert (swapped.registration, swapped.new_registration) == ("A6-EIA", "A6-EIB")
    assert cancelled.new_departure is None and cancelled.passengers_stranded_overnight == 12
    assert valid.totals.cancellations == 1 and network.exclusion_refused is None


def test_a_flight_decision_has_no_network_view():
    output = network_output_dict()
    del output["network"]
    assert decision_view(RUN, output, awaiting_approval=False, attempt=None).network is None


def test_excluded_flights_and_a_refused_exclusion_are_shown():
    output = network_output_dict(
        excluded={CANCELLED: "VIP charter"}, exclusion_refused="EY301 left at 14:00Z departs inside the closure"
    )
    network = network_view(output["network"], output["ranked"])
    assert network.excluded == {CANCELLED: "VIP charter"} and "inside the closure" in (network.exclusion_refused or "")
    assert [r.excluded for r in network.plans[0].rows] == [None, None, "VIP charter"]


def test_flight_numbers_are_read_as_the_tables_flight_ids():
    network = network_output_dict()["network"]
    assert exclusion_ids(network, {"ey301": "slot kept", CANCELLED: "VIP"}) == {RETIMED: "slot kept", CANCELLED: "VIP"}
    with pytest.raises(ValueError, match="EY999 is in no plan's table"):
        exclusion_ids(network, {"EY999": "x"})
    with pytest.raises(ValueError, match="not one"):
        exclusion_ids(None, {"EY301": "x"})


@pytest.mark.parametrize(
    "body,needle",
    [
        ({"action": "exclude"}, "exclude needs excluded_flights"),
        ({"action": "exclude", "excluded_flights": {"EY301": " "}}, "a reason for each flight"),
        ({"action": "abort", "reason": "r", "excluded_flights": {"EY301": "x"}}, "goes with action exclude"),
        ({"action": "abort"}, "reason is required"),
    ],
)
def test_the_override_body_refuses_an_incomplete_exclusion(body, needle):
    with pytest.raises(ValidationError, match=needle):
        Override.model_validate(body)


def test_an_exclusion_through_the_api_reaches_the_workflow_by_flight_id(send):
    fake = FakeWorkflow(network_output_dict())
    status, shown = send(fake, "GET", f"/disruptions/{RUN}/decision")
    assert status == 200 and shown["attempt"] == 2
    assert [r["flight_number"] for r in shown["network"]["plans"][0]["rows"]] == ["EY301", "EY302", "EY303"]

    body = {"action": "exclude", "excluded_flights": {"EY301": "slot already filed", CANCELLED: "VIP charter"}}
    status, recorded = send(fake, "POST", f"/disruptions/{RUN}/override", body)
    assert status == 200, recorded
    assert recorded["action"] == "exclude" and recorded["decided_by"] == "Dev Duty Manager"
    assert recorded["excluded_flights"] == {RETIMED: "slot already filed", CANCELLED: "VIP charter"}
    [answer] = fake.answers
    assert answer.action == "exclude" and answer.excluded_flights == recorded["excluded_flights"]


@pytest.mark.parametrize(
    "body,status,needle",
    [
        ({"action": "exclude", "excluded_flights": {"EY999": "x"}}, 400, "excluded_flights: EY999 is in no plan's"),
        ({"action": "exclude", "excluded_flights": {"EY301": ""}}, 400, "a reason for each flight"),
        ({"action": "exclude", "excluded_flights": "EY301"}, 400, "excluded_flights"),
    ],
)
def test_a_bad_exclusion_is_a_400_in_one_line(send, body, status, needle):
    fake = FakeWorkflow(network_output_dict())
    code, reply = send(fake, "POST", f"/disruptions/{RUN}/override", body)
    assert code == status and needle in reply["message"] and "\n" not in reply["message"], reply
    assert not fake.answers


def test_excluding_on_a_flight_decision_or_a_decided_run_is_refused(send):
    flight = network_output_dict()
    del flight["network"]
    body = {"action": "exclude", "excluded_flights": {"EY301": "x"}}
    code, reply = send(FakeWorkflow(flight), "POST", f"/disruptions/{RUN}/override", body)
    assert code == 400 and "network decision" in reply["message"]
    code, reply = send(FakeWorkflow(network_output_dict(), pending=False), "POST", f"/disruptions/{RUN}/override", body)
    assert code == 409 and "not waiting for a decision" in reply["message"]
    code, _ = send(FakeWorkflow(network_output_dict()), "POST", "/disruptions/other/override", body)
    assert code == 404


def test_the_restriction_in_one_line():
    from datetime import UTC, datetime

    from skymarshal.api.views import restriction_summary
    from skymarshal.models.disruption import Window
    from skymarshal.models.network_plan import NetworkRestriction

    night = Window(start=datetime(2027, 1, 22, 22, tzinfo=UTC), end=datetime(2027, 1, 23, 3, tzinfo=UTC))
    capacity = NetworkRestriction(kind="capacity", airport="AUH", window=night, departures_per_hour=10)
    assert (
        restriction_summary(capacity)
        == "capacity at AUH 22 Jan 22:00–23 Jan 03:00Z, 10 departures and – arrivals an hour"
    )
    regulation = NetworkRestriction(kind="regulation", airport="LHR", window=night, slot_delay_minutes=30)
    assert restriction_summary(regulation).endswith("03:00Z, slots 30 min after schedule")
