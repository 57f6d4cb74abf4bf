"""GET /operations?day=: the operation board on the session's account, through the API Lambda's resolver — by Query
only, the header the replay's scorecard, and a run pinned on it then its executed swap drawn."""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import date

from api_helpers import DEMO

from skymarshal.api.roles import Role
from skymarshal.data.access import DataHandle
from skymarshal.day import state as day_state
from skymarshal.day.scorecard import score
from skymarshal.views.board_models import OperationBoard

DAY = "2027-01-20"


def operations_counted(wf, call, **query) -> tuple[OperationBoard, Counter]:
    seen: Counter = Counter()
    events = wf.tables.resource.meta.client.meta.events
    count = lambda model, **_: seen.update([model.name])  # noqa: E731
    events.register("before-call.dynamodb", count)
    try:
        reply = call("GET", "/operations", role=Role.OBSERVER, query={"day": DAY, **query})
    finally:
        events.unregister("before-call.dynamodb", count)
    assert reply.status == 200, reply.body
    return OperationBoard.model_validate(reply.body), seen


def test_the_board_draws_every_tail_of_the_day_by_query_only(call, wf):
    board, operations = operations_counted(wf, call)
    assert operations["Scan"] == 0 and set(operations) <= {"Query", "GetItem", "BatchGetItem"}, operations
    rows = {r.registration: r for r in board.rows}
    assert len(rows) >= 60 and sum(len(r.flights) for r in board.rows) >= 150
    # the generated airline's A6-BLQ has an open AOG defect (its hydraulic pump): a block on its row
    assert any(b.kind == "aog" and b.source.startswith("work order") for b in rows["A6-BLQ"].blocks)
    assert board.header.flights >= 150 and 0 <= board.header.d15 <= 1
    for r in board.rows:
        for f in r.flights:
            assert f.start < board.end and f.end > board.start


def test_the_header_counts_what_the_replay_counts_on_every_booking(call, wf):
    """The board reads only the bookings of flights not flown as scheduled and their passengers' connections; the
    replay reads every booking of the window: the same disrupted passengers either way."""
    board, _ = operations_counted(wf, call)
    handle = DataHandle(naming=wf.tables.naming, resource=wf.tables.resource)
    day = date.fromisoformat(DAY)
    full = score("live", day_state.from_handle(handle, [day], {}), [], [day])
    header = board.header
    assert (header.flights, header.d15, header.a15, header.cancellations, header.passengers_disrupted) == (
        full.flights,
        full.d15,
        full.a15,
        full.cancellations,
        full.passengers_disrupted,
    )


def test_a_page_of_the_day_draws_only_its_window_and_a_bad_window_is_a_400(call, wf):
    board, _ = operations_counted(wf, call, start=f"{DAY}T06:00:00Z", end=f"{DAY}T09:00:00Z")
    assert (board.start.hour, board.end.hour) == (6, 9)
    flights = [f for r in board.rows for f in r.flights]
    assert flights and all(f.start < board.end and f.end > board.start for f in flights)
    backwards = call(
        "GET",
        "/operations",
        role=Role.OBSERVER,
        query={"day": DAY, "start": f"{DAY}T09:00:00Z", "end": f"{DAY}T06:00:00Z"},
    )
    assert backwards.status == 400 and "start/end" in backwards.message
    assert call("GET", "/operations", role=Role.OBSERVER, query={"day": "20 Jan"}).status in (400, 422)
    assert call("GET", "/operations", query={"day": DAY}).status == 401


def test_a_waiting_run_is_pinned_on_its_tail_and_its_executed_swap_is_drawn(call, wf, restore):
    run_id = f"api-board-{uuid.uuid4().hex[:6]}"
    started = call("POST", "/disruptions", role=Role.DUTY_MANAGER, body={"prompt": DEMO, "disruption_id": run_id})
    assert started.status == 202 and wf.follow(run_id, timeout_s=600).awaiting_approval
    waiting, _ = operations_counted(wf, call)
    marker = next(m for m in waiting.disruptions if m.disruption_id == run_id)
    assert marker.link == f"#{run_id}" and marker.outcome == "awaiting_decision" and marker.registrations
    ey123 = next(f for r in waiting.rows for f in r.flights if f.flight_number == "EY123")
    assert run_id in ey123.disruptions and waiting.header.decisions_waiting >= 1
    decision = call("GET", f"/disruptions/{run_id}/decision", role=Role.OBSERVER).body
    swap = next(c for c in decision["top"] if c["kind"] == "tail_swap")
    approved = call(
        "POST", f"/disruptions/{run_id}/approve", role=Role.DUTY_MANAGER, body={"scenario_id": swap["scenario_id"]}
    )
    restore.append(run_id)
    assert approved.status == 200 and wf.follow(run_id).status == "SUCCEEDED"
    after, _ = operations_counted(wf, call)
    assert run_id not in {m.disruption_id for m in after.disruptions}
    moved = next((r, f) for r in after.rows for f in r.flights if f.flight_id == ey123.flight_id)
    assert moved[1].change == "swapped_in" and moved[1].swapped_from == marker.registrations[0]
    assert moved[0].registration != moved[1].swapped_from
