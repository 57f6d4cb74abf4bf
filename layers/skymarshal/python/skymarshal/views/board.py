"""The operation board assembled from rows already read (``board_data``) and the runs (``board_runs``): pure, so
it is tested on hand-built rows.

- A flight's `change` is the decision Gantt's word for what happened to it, the strongest first: cancelled,
  diverted, swapped_in (an executed plan moved it onto this tail), delayed (its estimate after its schedule),
  else unchanged.
- Blocks: the day's AircraftAvailability status AOG or MAINTENANCE blocks the whole day (its note the label); a
  work order that grounds the tail (an AOG defect) or a scheduled check blocks from its opening to its closing (an
  open one: to its parts' arrival plus its labour estimate, else to the end of the window).
- Crew shortfalls: a flight rostered below its complement (two pilots with a captain; the type's cabin crew,
  ORO.CC.100 as the operator sets it per type), and a late flight whose rostered members the crew rules find
  illegal at its estimate (``day.scorecard.illegal_members``, as the replay counts crew violations).
- Bands: every run about an airport or airspace over a window (closed, or its capacity cut or regulated:
  ``network.restriction.restriction_of`` reads which from the disruption's facts), whatever its outcome — the cause
  holds whatever was decided.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from ..models.airports import UnknownAirport, airport
from ..models.fleet import AIRCRAFT_TYPES
from ..models.operational import CABIN_RANKS, AircraftDay, CrewDuty, Flight, WorkOrder
from ..network.restriction import NetworkInputRefused, restriction_of
from .board_data import BoardRows, LiveDay, overlaps
from .board_models import (
    BlockKind,
    BoardBand,
    BoardBandKind,
    BoardBlock,
    BoardDisruption,
    BoardFlight,
    BoardHeader,
    BoardRow,
    CrewShortfall,
    OperationBoard,
)
from .board_runs import RunOnBoard
from .gantt_models import Change

GROUNDING_STATUSES: dict[str, BlockKind] = {"AOG": "aog", "MAINTENANCE": "maintenance"}
OPEN_WORK = ("OPEN", "IN_PROGRESS")


def change_of(f: Flight, swapped_from: str | None) -> Change:
    if f.status == "CANCELLED":
        return "cancelled"
    if f.status == "DIVERTED":
        return "diverted"
    if swapped_from is not None and swapped_from != f.aircraft_registration:
        return "swapped_in"
    return "delayed" if f.departure > f.scheduled_departure else "unchanged"


def delay_of(f: Flight) -> int:
    return max(0, round((f.departure - f.scheduled_departure).total_seconds() / 60))


def below_complement(f: Flight, rows: Sequence[CrewDuty]) -> CrewShortfall | None:
    """The flight's roster short of two pilots with a captain, or of the type's cabin crew."""
    positions = [r.position for r in rows]
    pilots = sum(p in ("CPT", "FO") for p in positions)
    cabin = sum(p in CABIN_RANKS for p in positions)
    kind = AIRCRAFT_TYPES.get(f.aircraft_type)
    needed_cabin = kind.cabin_crew if kind else 0
    short = []
    if pilots < 2 or "CPT" not in positions:
        short.append(f"{pilots} of 2 pilots rostered{'' if 'CPT' in positions else ', no captain'}")
    if cabin < needed_cabin:
        short.append(f"{cabin} of {needed_cabin} cabin crew rostered")
    return CrewShortfall(kind="below_complement", text="; ".join(short)) if short else None


def blocks_of(day_row: AircraftDay | None, orders: Iterable[WorkOrder], start: datetime, end: datetime):
    """The tail's AOG and maintenance blocks inside [start, end)."""
    out: list[BoardBlock] = []
    if day_row is not None and day_row.status in GROUNDING_STATUSES:
        out.append(
            BoardBlock(
                kind=GROUNDING_STATUSES[day_row.status],
                start=start,
                end=end,
                label=day_row.note or day_row.status,
                source=f"AircraftAvailability {day_row.date}",
            )
        )
    for wo in orders:
        if not (wo.aog or wo.kind == "SCHEDULED_CHECK") or (wo.status not in OPEN_WORK and wo.closed_at is None):
            continue
        until = wo.closed_at
        if until is None and wo.parts_available_at is not None:
            until = wo.parts_available_at + timedelta(hours=wo.estimated_labour_hours)
        b0, b1 = max(start, wo.opened_at), min(end, until or end)
        if b1 <= b0:
            continue
        state = "" if wo.closed_at else " (open)"
        out.append(
            BoardBlock(
                kind="aog" if wo.aog else "maintenance",
                start=b0,
                end=b1,
                label=f"{'AOG' if wo.aog else 'CHECK'} ATA {wo.ata_chapter}: {wo.description}{state}",
                source=f"work order {wo.work_order_id}",
            )
        )
    return out


def _pins(run: RunOnBoard, flights: Sequence[Flight]) -> tuple[list[str], list[str]]:
    """(registrations, flight ids) of the board's rows a run is about. A run about flights is pinned only where one
    of them is drawn: the tail its report names flies other flights on other days."""
    d = run.disruption
    scope = d.scope if d else None
    named = set(scope.flights if scope else ()) | ({run.flight_id} if run.flight_id else set())
    numbers = set(scope.flight_numbers if scope else ())
    hit = [f for f in flights if f.flight_id in named or (not named and f.flight_number in numbers)]
    tails = {f.aircraft_registration for f in hit}
    if scope is not None and scope.registration and not (named or numbers):  # about the tail itself
        tails.add(scope.registration)
    return sorted(tails), sorted(f.flight_id for f in hit)


def band_of(run: RunOnBoard, flights: Sequence[Flight], start: datetime, end: datetime) -> BoardBand | None:
    d = run.disruption
    if d is None or d.window is None or d.scope.kind not in ("airport", "airspace"):
        return None
    airport = d.scope.airport or d.scope.airspace or ""
    b0, b1 = max(start, d.window.start), min(end, d.window.end)
    if b1 <= b0:
        return None
    kind: BoardBandKind = "disruption"
    label = f"{d.cause} at {airport}"
    try:
        restriction = restriction_of(d, [f for f in flights if airport in (f.origin, f.destination)])
        if restriction.kind != "flights":
            kind, label = restriction.kind, restriction.described()
    except NetworkInputRefused:
        pass  # the report says neither closed nor a rate: the window is drawn as reported
    return BoardBand(
        kind=kind,
        airport=airport,
        start=b0,
        end=b1,
        label=label,
        disruption_id=run.line.disruption_id,
    )


def marker_of(run: RunOnBoard, flights: Sequence[Flight], start: datetime, end: datetime) -> BoardDisruption | None:
    """An open run pinned on the board: on its tails, or at its airport over its window; None when it is about
    nothing the window shows."""
    tails, flight_ids = _pins(run, flights)
    d = run.disruption
    airport = d.scope.airport if d else None
    in_window = d is not None and d.window is not None and d.window.start < end and d.window.end > start
    if not tails and not (airport and in_window):
        return None
    at = d.window.start if d is not None and d.window is not None else run.line.started_at
    if flight_ids and (d is None or d.window is None):
        at = min(f.departure for f in flights if f.flight_id in flight_ids)
    return BoardDisruption(
        disruption_id=run.line.disruption_id,
        outcome=run.line.outcome,
        outcome_text=run.line.outcome_text,
        subject=run.line.subject,
        report=run.line.report,
        at=min(max(at, start), end),
        registrations=tails,
        flight_ids=flight_ids,
        airport=airport,
        link=f"#{run.line.disruption_id}",
    )


def zones_of(codes: Iterable[str]) -> dict[str, str]:
    """Each airport's IANA zone from the world airport reference (no table read); one it does not know is left out."""
    out = {}
    for code in sorted(codes):
        try:
            out[code] = airport(code).tz
        except UnknownAirport:
            continue
    return out


def header_of(live: LiveDay, runs: Sequence[RunOnBoard]) -> BoardHeader:
    card = live.card
    return BoardHeader(
        flights=card.flights,
        d15=card.d15,
        a15=card.a15,
        cancellations=card.cancellations,
        diversions=card.diversions,
        passengers_disrupted=card.passengers_disrupted,
        decisions_waiting=sum(r.line.outcome == "awaiting_decision" for r in runs),
        runs_open=sum(r.open for r in runs),
    )


def assemble(rows: BoardRows, runs: Sequence[RunOnBoard], live: LiveDay) -> OperationBoard:
    """The board of `rows`' window: a row per tail that flies in it or has an availability row that day."""
    start, end = rows.start, rows.end
    flights = [f for f in rows.flights if overlaps(f, start, end)]
    swapped_from = {fid: tail for r in runs for fid, tail in r.swaps.items()}
    markers = [m for r in runs if r.open and (m := marker_of(r, flights, start, end)) is not None]
    on_flight: dict[str, list[str]] = defaultdict(list)
    on_tail: dict[str, list[str]] = defaultdict(list)
    for m in markers:
        for fid in m.flight_ids:
            on_flight[fid].append(m.disruption_id)
        for tail in m.registrations:
            on_tail[tail].append(m.disruption_id)
    by_tail: dict[str, list[Flight]] = defaultdict(list)
    for f in flights:
        by_tail[f.aircraft_registration].append(f)
    days = {a.aircraft_registration: a for a in rows.availability}
    board_rows = []
    for tail in sorted(set(by_tail) | set(days)):
        legs = sorted(by_tail.get(tail, []), key=lambda f: (f.departure, f.flight_id))
        day_row = days.get(tail)
        kind = day_row.aircraft_type if day_row else legs[0].aircraft_type
        board_rows.append(
            BoardRow(
                registration=tail,
                aircraft_type=kind,
                label=f"{tail} ({kind})",
                status=day_row.status if day_row else None,
                station=day_row.station if day_row else None,
                flights=[_board_flight(f, rows.crew, swapped_from, on_flight, live.crew_illegal) for f in legs],
                blocks=blocks_of(day_row, rows.work_orders.get(tail, ()), start, end),
                disruptions=on_tail.get(tail, []),
            )
        )
    bands = [b for r in runs if (b := band_of(r, rows.flights, start, end)) is not None]
    airports = {code for f in flights for code in (f.origin, f.destination, f.diverted_to) if code}
    return OperationBoard(
        zones=zones_of(airports),
        day=rows.day,
        start=start,
        end=end,
        header=header_of(live, runs),
        rows=board_rows,
        bands=bands,
        disruptions=markers,
    )


def _board_flight(
    f: Flight,
    crew: Mapping[str, list[CrewDuty]],
    swapped_from: Mapping[str, str],
    on_flight: Mapping[str, list[str]],
    crew_illegal: Mapping[str, list[str]],
) -> BoardFlight:
    shortfalls = []
    if f.status != "CANCELLED" and (short := below_complement(f, crew.get(f.flight_id, []))) is not None:
        shortfalls.append(short)
    shortfalls += [CrewShortfall(kind="illegal_at_estimate", text=t) for t in crew_illegal.get(f.flight_id, [])]
    return BoardFlight(
        flight_id=f.flight_id,
        flight_number=f.flight_number,
        origin=f.origin,
        destination=f.destination,
        scheduled_departure=f.scheduled_departure,
        scheduled_arrival=f.scheduled_arrival,
        start=f.departure,
        end=max(f.arrival, f.departure),
        change=change_of(f, swapped_from.get(f.flight_id)),
        delay_minutes=delay_of(f),
        status=f.status,
        diverted_to=f.diverted_to,
        swapped_from=swapped_from.get(f.flight_id),
        delay_reason=f.delay_reason,
        crew_shortfalls=shortfalls,
        disruptions=on_flight.get(f.flight_id, []),
    )
