"""What the airline's maintenance system tells the OCC while a day is replayed: a defect a report grounded a tail
for is closed when the stream's repair ends (its truth), as the engineers sign the aircraft off in M&E.

Without it, the work order a recovery recorded from the report stays open for ever: every later decision reads the
tail as unserviceable (Part-M M.A.403), and a network plan hours after the repair cancels the very flights the
first decision re-timed for the release. The replay's other news (a cause cleared before a wait's departure) goes
to the OCC as a report; this one is data, as it is in an airline. Only orders a recovery recorded from that
event's report are closed — never the airline's own.
"""

from __future__ import annotations

from datetime import datetime

from ..data import queries as q
from ..data import schema as s
from ..data.access import DataHandle
from ..models.common import iso_z
from .stream import Stream


def close_repaired(handle: DataHandle, stream: Stream, now: datetime, names: dict[str, str]) -> list[str]:
    """Close (CLOSED, closed at the repair's end) each open work order a run of a tail event repaired by `now`
    recorded; `names`: event id → the execution name its runs start with. The orders closed, by id."""
    closed = []
    for e in stream.events:
        if e.holds != "tail" or e.registration is None or e.end > now or e.event_id not in names:
            continue
        for order in q.work_orders_for_aircraft(handle, e.registration):
            run, name = order.updated_by_execution or "", names[e.event_id]
            if order.status == "CLOSED" or not (run == name or run.startswith(f"{name}--")):  # its re-decisions too
                continue
            handle.resource.Table(handle.naming(s.MAINTENANCE_WORK_ORDERS)).update_item(
                Key={"work_order_id": order.work_order_id},
                UpdateExpression="SET #status = :closed, closed_at = :at",
                ExpressionAttributeNames={"#status": "status"},
                ExpressionAttributeValues={":closed": "CLOSED", ":at": iso_z(e.end)},
            )
            closed.append(order.work_order_id)
    return closed
