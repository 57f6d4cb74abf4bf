"""Local start's outbox sweep (local/runs.sweep_messages, issue 48 item 3) on the emulated account: messages an
Execute stored and never published are put on the local message bus, each once, and the stored publication says so;
a second sweep finds nothing pending."""

from __future__ import annotations

import uuid

from skymarshal.local.emulator import BUCKET
from skymarshal.local.runs import sweep_messages
from skymarshal.messages import formats as fmt
from skymarshal.workflow.aws.s3 import S3Objects
from skymarshal.workflow.execution.outbox import pending_key
from skymarshal.workflow.payloads import ArtifactStore, run_key


def test_local_start_publishes_the_messages_a_cut_short_execute_stored(account):
    from datetime import UTC, datetime

    from skymarshal.messages.models import ContactTotals, OutboundMessage, PlanMessages

    run = f"outbox-{uuid.uuid4().hex[:6]}"
    departs = datetime(2027, 1, 20, 9, 0, tzinfo=UTC)
    messages = [
        OutboundMessage(
            standard="ASM",
            action="CNL",
            flight_id=f"EY{n}-20270120",
            flight_number=f"EY{n}",
            stations=["AUH", "LHR"],
            text=fmt.asm_cancel(f"EY{n}", departs, 41),
            why="cancelled",
        )
        for n in (1, 2)
    ]
    plan = PlanMessages(
        scenario_id="cancel",
        messages=messages,
        crew=[],
        stations=[],
        passengers=[],
        totals=ContactTotals(messages=2, crew=0, stations=0, passengers=0),
    )
    store = ArtifactStore(BUCKET, S3Objects(account.client("s3")))
    key = run_key(run, run, "messages")
    store.put(pending_key(run, run), {})  # as Execute marks it before storing
    store.put(key, plan.model_dump(mode="json"))  # stored; the kill came before publishing
    first = sweep_messages(account)
    assert first["pending"] >= 1 and first["published"] >= 3
    publication = store.get(key)["publication"]
    assert publication["published"] == 3 and publication["failed"] == []
    assert sorted(publication["sent"]) == [f"{run}/{run}/0", f"{run}/{run}/1", f"{run}/{run}/contacts"]
    assert sweep_messages(account)["pending"] == 0
