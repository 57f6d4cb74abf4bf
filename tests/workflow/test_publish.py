"""Publishing an executed plan's messages on the message bus: one event per message and one for the contact list;
a message that fails its format check is never put on the bus; an event the bus refuses or a call that fails is
said in the Publication (the messages are in S3 whatever happens); no bus configured publishes nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from botocore.exceptions import ClientError
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.messages import formats as fmt
from skymarshal.messages.models import ContactTotals, OutboundMessage, PlanMessages
from skymarshal.workflow.aws.events import EventBridgeBus
from skymarshal.workflow.deployment import CONTACTS_DETAIL_TYPE, MESSAGE_DETAIL_TYPES, MESSAGE_SOURCE
from skymarshal.workflow.execution.publish import BATCH, MessageBus, publish

pytestmark = pytest.mark.unit
DEP = datetime(2027, 1, 20, 9, 0, tzinfo=UTC)


def _message(n: int, text: str | None = None) -> OutboundMessage:
    return OutboundMessage(
        standard="ASM",
        action="CNL",
        flight_id=f"EY{n}-20270120",
        flight_number=f"EY{n}",
        stations=["AUH", "LHR"],
        text=text if text is not None else fmt.asm_cancel(f"EY{n}", DEP, 41),
        why="cancelled",
    )


def _plan(messages: list[OutboundMessage]) -> PlanMessages:
    return PlanMessages(
        scenario_id="cancel",
        messages=messages,
        crew=[],
        stations=[],
        passengers=[],
        totals=ContactTotals(messages=len(messages), crew=0, stations=0, passengers=0),
    )


class Events:
    """PutEvents as EventBridge answers it: an id per entry taken; `refuse` names flights it refuses, `down` the
    calls (by number) that fail outright."""

    def __init__(self, refuse: frozenset[str] = frozenset(), down: frozenset[int] = frozenset()):
        self.put: list[dict] = []
        self.calls = 0
        self.refuse, self.down = refuse, down

    def put_events(self, Entries: list[dict]) -> dict:  # boto3 names it so
        self.calls += 1
        assert len(Entries) <= BATCH
        if self.calls in self.down:
            raise ClientError({"Error": {"Code": "InternalException", "Message": "try later"}}, "PutEvents")
        answers = []
        for entry in Entries:
            if json.loads(entry["Detail"]).get("flight_id") in self.refuse:
                answers.append({"ErrorCode": "ThrottlingException", "ErrorMessage": "slow down"})
            else:
                self.put.append(entry)
                answers.append({"EventId": f"e{len(self.put)}"})
        return {"FailedEntryCount": sum("ErrorCode" in a for a in answers), "Entries": answers}


def _publish(plan: PlanMessages, events: Events, bus: str | None = "bus"):
    # the fake answers as boto3's client does; the EventBus port's adapter reads its answer
    return publish(plan, to=MessageBus(bus, EventBridgeBus(events)), disruption_id="d1", execution_name="run-1")


def test_each_message_and_the_contact_list_is_an_event_on_the_bus():
    plan = _plan([_message(1), _message(2)])
    events = Events()
    published = _publish(plan, events)
    assert (published.status, published.events, published.published, published.failed) == ("published", 3, 3, [])
    assert [e["DetailType"] for e in events.put] == [MESSAGE_DETAIL_TYPES["ASM"]] * 2 + [CONTACTS_DETAIL_TYPE]
    assert {e["Source"] for e in events.put} == {MESSAGE_SOURCE} and {e["EventBusName"] for e in events.put} == {"bus"}
    first = json.loads(events.put[0]["Detail"])
    assert first["text"] == plan.messages[0].text and first["execution_name"] == "run-1"


def test_a_message_failing_its_format_is_never_published():
    plan = _plan([_message(1), _message(2, text="ASM\nCNL EY2")])
    events = Events()
    published = _publish(plan, events)
    assert [json.loads(e["Detail"]).get("flight_id") for e in events.put] == ["EY1-20270120", None]
    assert published.status == "partly_published" and published.published == 2
    assert [f.what for f in published.failed] == ["ASM CNL EY2-20270120"]
    assert published.failed[0].error.startswith("format: not an ASM")


@given(
    count=st.integers(0, 25),
    refused=st.sets(st.integers(0, 24), max_size=5),
    down=st.sets(st.integers(1, 3), max_size=2),
)
def test_every_event_is_published_or_said_not_to_be(count, refused, down):
    plan = _plan([_message(n) for n in range(count)])
    events = Events(refuse=frozenset(f"EY{n}-20270120" for n in refused), down=frozenset(down))
    published = _publish(plan, events)
    assert published.events == count + 1
    assert published.published == len(events.put)
    assert published.published + len(published.failed) == published.events  # none lost between the two
    assert (published.status == "published") == (not published.failed)


def test_no_bus_publishes_nothing():
    events = Events()
    published = _publish(_plan([_message(1)]), events, bus=None)
    assert published.status == "no_bus" and events.calls == 0
