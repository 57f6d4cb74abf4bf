"""MEL dispatch and aircraft airworthiness from the open work orders.

- ``rectification_deadline``  MMEL/MEL rectification interval: category A as stated in the item; B 3, C 10,
                              D 120 calendar days, the day of discovery excluded. The item must be rectified
                              by the end of the last day (local midnight in ``tz``, UTC by default).
- ``mel_item_finding``        an item past its interval makes the aircraft unairworthy (AOG).
- ``aircraft_airworthiness``  open AOG defects (Part-M M.A.403(a): a defect that seriously hazards flight
                              safety is rectified before further flight) and expired MEL items ground the
                              aircraft; dispatch restrictions carried by deferred items are collected.
Rectification interval extensions (RIE) are not modelled.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict

from ..models.findings import DEFAULT_AT_RISK_MINUTES, Finding, status_for_margin
from ..models.operational import MelItem, WorkOrder
from ._clock import as_utc, fmt_hm

# MMEL/MEL rectification intervals, calendar days excluding the day of discovery (category A: the item's own).
RECTIFICATION_INTERVAL_DAYS: dict[str, int | None] = {"A": None, "B": 3, "C": 10, "D": 120}
MEL_CLAUSE = "MMEL/MEL rectification interval, category {category}"
AOG_CLAUSE = "Part-M M.A.403(a) (defect rectified before further flight)"


class Airworthiness(BaseModel):
    model_config = ConfigDict(frozen=True)

    registration: str | None
    airworthy: bool
    findings: tuple[Finding, ...]
    restrictions: tuple[str, ...]  # dispatch restrictions of the deferred items still within their interval


def interval_days(item: MelItem) -> int:
    """Days allowed for the item: category A from the item (``interval_days``), B/C/D from the table."""
    fixed = RECTIFICATION_INTERVAL_DAYS[item.category]
    if fixed is not None:
        return fixed
    assert item.interval_days is not None  # the model requires it for category A
    return item.interval_days


def rectification_deadline(item: MelItem, tz: str = "UTC") -> datetime:
    """The instant (UTC) the interval runs out: midnight ending day ``discovered_on + interval`` in ``tz``.

    Discovered on 1 March, category B (3 days): 2, 3 and 4 March count; expires 5 March 00:00.
    """
    return _deadline(item.discovered_on, interval_days(item), tz)


def _deadline(discovered_on: date, days: int, tz: str) -> datetime:
    last_day = discovered_on + timedelta(days=days)
    return as_utc(datetime.combine(last_day + timedelta(days=1), time(0, 0), tzinfo=ZoneInfo(tz)))


def mel_item_finding(
    item: MelItem, at: datetime, subject: str, *, tz: str = "UTC", at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES
) -> Finding:
    """Within the interval → legal (at_risk near the end); past it → illegal and binding (aircraft AOG)."""
    deadline = rectification_deadline(item, tz)
    margin = int((deadline - as_utc(at)).total_seconds() // 60)
    # the deadline is the first instant past the interval: reaching it means expired
    status = "illegal" if as_utc(at) >= deadline else status_for_margin(margin, at_risk_minutes)
    days = interval_days(item)
    if status == "illegal":
        message = (
            f"MEL item {item.reference} (cat {item.category}, {days} days from {item.discovered_on}) expired "
            f"{deadline:%Y-%m-%d %H:%M}Z: the aircraft is unairworthy until it is rectified."
        )
    else:
        message = (
            f"MEL item {item.reference} (cat {item.category}) may stay deferred until "
            f"{deadline:%Y-%m-%d %H:%M}Z ({fmt_hm(margin)} h left)."
        )
    return Finding(
        rule="mnt.mel_interval",
        clause=MEL_CLAUSE.format(category=item.category),
        status=status,
        binding=status == "illegal",
        subject=subject,
        margin_minutes=margin,
        limit=days,
        unit="days",
        actual=(as_utc(at).astimezone(ZoneInfo(tz)).date() - item.discovered_on).days,
        message=message,
        details={
            "reference": item.reference,
            "category": item.category,
            "deadline": deadline.isoformat(),
            "restrictions": list(item.restrictions),
        },
    )


def _open_at(order: WorkOrder, at: datetime) -> bool:
    if order.opened_at > at:
        return False
    if order.closed_at is not None and order.closed_at <= at:
        return False
    return order.status != "CLOSED"


def grounded_at(
    work_orders: Sequence[WorkOrder], at: datetime, *, registration: str | None = None, tz: str = "UTC"
) -> bool:
    """Whether an open work order grounds the aircraft at `at` — an AOG order, or a deferred MEL item past its
    interval — exactly when ``aircraft_airworthiness`` finds it not airworthy, without writing its findings: a tail's
    rotation asks at every departure of every plan (CAT-IDE / MMEL; Part-M M.A.403)."""
    at = as_utc(at)
    for order in work_orders:
        if registration is not None and order.aircraft_registration != registration:
            continue
        if not _open_at(order, at):
            continue
        if order.aog or (order.mel is not None and at >= rectification_deadline(order.mel, tz)):
            return True
    return False


def aircraft_airworthiness(
    work_orders: Sequence[WorkOrder],
    at: datetime,
    *,
    registration: str | None = None,
    tz: str = "UTC",
    at_risk_minutes: int = DEFAULT_AT_RISK_MINUTES,
) -> Airworthiness:
    """Airworthy unless an open work order is AOG or a deferred MEL item has run out of interval.

    An open defect neither deferred under the MEL nor flagged AOG is reported at_risk: it needs an
    engineering decision before dispatch. ``registration`` filters the orders when several aircraft are mixed.
    """
    at = as_utc(at)
    orders = [o for o in work_orders if registration is None or o.aircraft_registration == registration]
    reg = registration or (orders[0].aircraft_registration if orders else None)
    findings: list[Finding] = []
    restrictions: list[str] = []
    for order in sorted(orders, key=lambda o: o.opened_at):
        if not _open_at(order, at):
            continue
        subject = order.aircraft_registration
        if order.aog:
            findings.append(
                Finding(
                    rule="mnt.aog",
                    clause=AOG_CLAUSE,
                    status="illegal",
                    binding=True,
                    subject=subject,
                    message=f"Work order {order.work_order_id} (ATA {order.ata_chapter}) grounds the aircraft: "
                    f"{order.description}.",
                    details={
                        "work_order_id": order.work_order_id,
                        "station": order.station,
                        "parts_available_at": order.parts_available_at.isoformat()
                        if order.parts_available_at
                        else None,
                        "estimated_labour_hours": order.estimated_labour_hours,
                        "required_authorisation": order.required_authorisation,
                    },
                )
            )
        if order.mel is not None:
            finding = mel_item_finding(order.mel, at, subject, tz=tz, at_risk_minutes=at_risk_minutes)
            findings.append(
                finding.model_copy(update={"details": {**finding.details, "work_order_id": order.work_order_id}})
            )
            if finding.status != "illegal":
                restrictions.extend(r for r in order.mel.restrictions if r not in restrictions)
        elif order.kind == "DEFECT" and not order.aog:
            findings.append(
                Finding(
                    rule="mnt.open_defect",
                    clause="Part-M M.A.403 (defect rectified or deferred)",
                    status="at_risk",
                    subject=subject,
                    message=f"Open defect {order.work_order_id} (ATA {order.ata_chapter}) is neither deferred under the "
                    f"MEL nor flagged AOG: engineering must decide before dispatch.",
                    details={"work_order_id": order.work_order_id},
                )
            )
    airworthy = not any(f.status == "illegal" for f in findings)
    return Airworthiness(
        registration=reg, airworthy=airworthy, findings=tuple(findings), restrictions=tuple(restrictions)
    )
