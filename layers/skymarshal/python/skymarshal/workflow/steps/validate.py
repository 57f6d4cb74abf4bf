"""The work of each state-machine step, free of Lambda: Validate here, with the run's initial state and the approval
timeout setting; Collate in ``workflow.steps.collate``; Arbitrate, Execute and Learn's close of the arbitration thread
in ``workflow.steps.decision``.

Each function takes the step's input as the state machine passes it and returns the step's result as a
pydantic model (the handler dumps it). Data access comes in as arguments so tests and the local runner
call the same code the Lambdas do.
"""

from __future__ import annotations

import os
import time
from datetime import date, datetime
from typing import Any

from pydantic import ValidationError

from ...data import queries as q
from ...data import schema as s
from ...data.access import DataHandle
from ...data.overlay import Overlay
from ...data.schema import AGENTS
from ...intake.airport_facts import InvalidReport, network_report
from ...intake.clearance import with_clearance
from ...intake.clock import impossible_time
from ...intake.described_flights import DescribedFlights, described_flights, no_departure_left
from ...intake.disruption_facts import ReportContradictsData
from ...intake.extraction import extract_offline
from ...intake.own_estimate import RELEASE_AHEAD, released_estimate, released_later
from ...intake.tail_facts import running_late, tail_flight, tail_scope
from ...intake.when import OpsDateError, configured_ops_date, speaks_relatively
from ...models.disruption import Disruption
from ...models.operational import Flight
from ..audit.trail import AuditTrail
from ..deployment import APPROVAL_TIMEOUT_ENV
from ..models import DisruptionRequest, ValidatedRequest, field_error
from ..payloads import ArtifactStore, run_key
from ..runs.retry import RetryPlan, retry_plan
from ..tables import WorkflowTables
from .validate_facts import FactsRefused, corrected_flights, corrected_network, flight_facts, movement_facts

DEFAULT_APPROVAL_TIMEOUT_S = 1800  # 30 minutes: company policy's approval window (knowledge/recovery-policy)
# `debate`: the debate rounds after the revision round (workflow/steps/debate.py), null unless one runs.
STATE_KEYS = ("request", "phase1", "phase2", "debate", "decision", "approval", "execution", "escalation", "outcome")


class InvalidDisruption(Exception):
    """The request cannot be analysed; the message says what was wrong and what to do. `parked`: the inbound
    message was kept in the quarantine with that reason (workflow/quarantine.py)."""

    parked = False


def _parked(request: DisruptionRequest, reason: str, tables: WorkflowTables) -> InvalidDisruption:
    """A movement message the data refuses (an unknown flight, a tail or station not the flight's): parked in the
    quarantine with its reason, so the feed's refusal is listed, not only a failed run."""
    from ...data.quarantine import Parked, now
    from ..quarantine import park_item

    refused = InvalidDisruption(reason)
    record = Parked(
        source="mvt", file=f"run {request.disruption_id}", line=1, record=request.prompt, reason=reason, parked_at=now()
    )
    refused.parked = park_item(record, tables=tables)
    return refused


def approval_timeout_seconds(*, tables: WorkflowTables) -> int:
    """The Admin's saved setting (workflow/settings.py) when there is one, else the deployment's environment."""
    from ..settings import load

    stored = load(tables=tables)
    return stored.approval_timeout_minutes * 60 if stored else environment_timeout_seconds()


def environment_timeout_seconds() -> int:
    raw = os.environ.get(APPROVAL_TIMEOUT_ENV, str(DEFAULT_APPROVAL_TIMEOUT_S))
    try:
        value = int(raw)
    except ValueError:
        raise InvalidDisruption(f"{APPROVAL_TIMEOUT_ENV}={raw!r} is not a whole number of seconds") from None
    return max(1, value)


def environment_settings():
    """The settings as the deployment sets them (what GET /settings shows before an Admin saves any)."""
    from ..settings import RunSettings

    return RunSettings(approval_timeout_minutes=max(1, round(environment_timeout_seconds() / 60)))


# ------------------------------------------------------------------------------------------- Validate


def _claim_flight(request: ValidatedRequest, *, tables: WorkflowTables) -> None:
    """One disruption per flight at a time (workflow/runs/flight_claims.py): a second one is refused, naming the first."""
    from ..runs import flight_claims as flight_claims

    if not flight_claims.enabled() or request.flight_id is None or request.flight_number is None:
        return  # an airport or airspace run claims no single flight
    assert request.flight_date is not None
    try:
        flight_claims.claim(
            flight_id=request.flight_id,
            flight_number=request.flight_number,
            flight_date=request.flight_date,
            disruption_id=request.disruption_id,
            execution_name=request.execution_name,
            run_seconds=request.approval_timeout_seconds,
            tables=tables,
            cause=request.disruption.family,
            follows=request.redecides,
        )
    except flight_claims.FlightClaimed as exc:
        raise InvalidDisruption(str(exc)) from None


def _check_network_scope(disruption, handle: DataHandle, now: datetime) -> None:
    """An airport or airspace report (or one naming several flights) the network planner would refuse (a window past
    the data, a capacity at or above the normal rate, a rate that limits no flight, too many flights, a named flight
    already flown or cancelled) is refused here, in its one line, before seven agents analyse every flight of it;
    Arbitrate checks again on the data it then reads."""
    from ...arbitration.arbitrator import ArbitratorConfig
    from ...network.restriction import NetworkInputRefused
    from ...network.scope import network_scope

    config = ArbitratorConfig().network
    try:
        network_scope(handle, disruption, now=now, recovery_hours=config.recovery_hours, max_flights=config.max_flights)
    except NetworkInputRefused as exc:
        raise InvalidDisruption(str(exc)) from None


# (connection, endpoint, table) → (looked up at, first day)
_FIRST_DAYS: dict[tuple[int, str, str], tuple[float, date | None]] = {}
FIRST_DAY_SECONDS = 600  # the data's first day moves only when the airline is generated again


def _data_ops_date(prompt: str, handle: DataHandle, now: datetime) -> date | None:
    """With no operating day configured, today — unless the data starts after today (a generated airline run
    locally): then its first day. Looked up only for a report that speaks of "today", "tomorrow" or a weekday, and
    kept ten minutes per table (locally the lookup reads every availability row)."""
    if not speaks_relatively(prompt):
        return None
    resource = handle.resource
    key = (id(resource), str(resource.meta.client.meta.endpoint_url), handle.naming(s.AIRCRAFT_AVAILABILITY))
    # (the clock's origin is arbitrary — a fresh container's can be seconds old — so no entry is never "recent")
    cached = _FIRST_DAYS.get(key)
    first = cached[1] if cached else None
    if cached is None or time.monotonic() - cached[0] > FIRST_DAY_SECONDS:
        first = q.first_day(handle)
        _FIRST_DAYS[key] = (time.monotonic(), first)
    return first if first is not None and now.date() < first else None


def report_model(llm: Any = None) -> Any:
    """The model that completes the parser's reading of a report (None offline). A model that cannot be
    configured is logged with its reason and the parser's reading stands, as for any model failure."""
    if llm is not None:
        return llm
    from ...llm import failures
    from ...llm.profiles import ModelConfigError
    from ...llm.provider import chat_model

    try:
        return chat_model("agent", "validate")
    except ModelConfigError as exc:
        failures.record(exc, model="(configuration)", agent="validate", stage="configure")
        return None


def validate(
    payload: Any,
    *,
    execution_name: str,
    handle: DataHandle,
    tables: WorkflowTables,
    store: ArtifactStore,
    now: datetime | None = None,
    trail: AuditTrail | None = None,
    llm: Any = None,
) -> dict[str, Any]:
    """The execution input → the run's initial state, or InvalidDisruption before any agent runs. `llm`: the
    model that completes the report's reading (default: the configured one, none offline)."""
    if not isinstance(payload, dict):
        raise InvalidDisruption(
            f"the execution input must be a JSON object with disruption_id and prompt, got {type(payload).__name__}"
        )
    try:
        request = DisruptionRequest.model_validate(payload)
    except ValidationError as exc:
        raise InvalidDisruption(field_error(exc, "disruption request")) from None
    # The execution's name is free: the disruption is the input's `disruption_id`, so "New execution" with a
    # copied input (Step Functions console) replays that disruption. A duplicated event still starts nothing
    # new: the Trigger names each execution after its event id (workflow/runs/trigger.py).

    def flight_dates(number: str):
        return [f.flight_date for f in q.flights_by_number(handle, number)]

    try:
        ops = configured_ops_date(request.ops_date) or _data_ops_date(
            request.prompt, handle, now or request.reported_at
        )
    except OpsDateError as exc:
        raise InvalidDisruption(str(exc)) from None
    facts, by = request.facts, request.requested_by or request.source
    previous = request.resumes or request.disruption_id  # the run a resume or a retry reuses
    plan = retry_plan(request.disruption_id, previous, store) if request.retry else None
    common = {
        "disruption_id": request.disruption_id,
        "execution_name": execution_name,
        "prompt": request.prompt,
        "source": request.source,
        "requested_by": request.requested_by,
        "reported_at": request.reported_at,
        "agents": plan.initial if plan else list(AGENTS),
        "revision_agents": plan.revision if plan else list(AGENTS),
        "resumes": previous if request.resume or request.retry else None,
        "redecides": request.redecides,
        "approval_timeout_seconds": approval_timeout_seconds(tables=tables),
    }

    def flight_run(flight: Flight, description: str, disruption: Disruption, overlay: Overlay) -> dict[str, Any]:
        if (gone := no_departure_left(flight)) is not None:  # a movement message's flight (the others: above)
            raise InvalidDisruption(gone)
        if request.redecides:  # the estimate the followed run's own plan gave the flight is no floor for this one's
            crew = q.crew_assignments(handle, flight.flight_id)
            at = now or request.reported_at
            flight, overlay = released_estimate(flight, overlay, request.redecides, at, crew)
            if (until := at + RELEASE_AHEAD) > flight.scheduled_departure:  # the tail's later flights it re-timed
                later = q.rotation(handle, flight.aircraft_registration, flight.scheduled_departure, until)
                later = [f for f in later if f.flight_id != flight.flight_id]
                overlay = released_later(
                    flight, later, overlay, request.redecides, at, lambda fid: q.crew_assignments(handle, fid)
                )
        try:  # when the cause clears (issue 46): a stated estimate the data contradicts is refused
            disruption = with_clearance(disruption, request.prompt, handle, now or request.reported_at, flight)
        except ReportContradictsData as exc:
            raise InvalidDisruption(str(exc)) from None
        validated = ValidatedRequest(
            **common,
            flight_number=flight.flight_number,
            flight_date=flight.flight_date.isoformat(),
            flight_id=flight.flight_id,
            description=description or disruption.cause,
            disruption=disruption,
            overlay=overlay,
        )
        _claim_flight(validated, tables=tables)
        return _initial_state(validated, request, store, trail, plan)

    try:  # a movement message (MVT, MVA, DIV): its elements, read by the message parser, not prose
        moved = movement_facts(request.prompt, handle, now or request.reported_at, ops, facts, by)
    except (FactsRefused, ReportContradictsData) as exc:
        raise _parked(request, str(exc), tables) from None
    if moved is not None:
        return flight_run(*moved)
    if (problem := impossible_time(request.prompt)) is not None:  # "25:30Z", "AD2575/2590": refused, never read past
        raise InvalidDisruption(problem)
    extraction = extract_offline(
        request.prompt, now=now or request.reported_at, flight_dates=flight_dates, ops_date=ops
    )
    info = extraction.flight_info
    try:  # the flights the duty manager named instead of the report's, checked against the schedule
        named = corrected_flights(facts, extraction, ops, handle)
    except FactsRefused as exc:
        raise InvalidDisruption(str(exc)) from None
    reads: dict[str, str | None] | None = None
    flight: Flight | None
    described: DescribedFlights | None = None
    if named is not None:
        (flight, *others), reads = named
        description, by_registration = info.disruption_description if info else "", False
    elif not extraction.ok or info is None:
        if extraction.understood.get("flight_numbers"):
            raise InvalidDisruption(extraction.message)
        try:  # no flight named: flights described, an aircraft by its registration, or an airport over a window
            described = described_flights(request.prompt, handle, now or request.reported_at, ops)
            flight = tail_flight(request.prompt, handle, now or request.reported_at, ops) if not described else None
            if flight is None and described is None:
                disruption, overlay = network_report(
                    request.prompt, handle, now or request.reported_at, report_model(llm), ops_date=ops
                )
        except InvalidReport as exc:
            raise InvalidDisruption(str(exc)) from None
        if described is not None:  # one disruption over the set (a tail's one flight: the tail's)
            flight, *others = described.flights
            description, by_registration = "", described.by_tail_only and not others
            if described.by_tail and running_late(request.prompt):  # the aircraft late all day: the tail's
                others, by_registration = [], True
        elif flight is None:
            try:
                disruption = corrected_network(disruption, facts, by)
            except FactsRefused as exc:
                raise InvalidDisruption(str(exc)) from None
            _check_network_scope(disruption, handle.with_overlay(overlay), now or request.reported_at)
            disruption = with_clearance(disruption, request.prompt, handle, now or request.reported_at, None)
            validated = ValidatedRequest(**common, description=disruption.cause, disruption=disruption, overlay=overlay)
            return _initial_state(validated, request, store, trail, plan)
        else:
            description, by_registration, others = "", True, []
    else:
        flight = q.find_flight(handle, info.flight_number, info.date)
        if flight is None:
            raise InvalidDisruption(
                f"{info.flight_number} on {info.date} is not in the schedule: check the flight and date"
            )
        # "A6-EJN running an hour late all day, starting with EY374": the aircraft is the subject, the flight its first
        by_registration = not extraction.flight_infos[1:] and running_late(request.prompt)
        description = info.disruption_description
        others = []  # the further flights a report names beside the first, on the same day (one disruption)
        for more in extraction.flight_infos[1:]:
            if (other := q.find_flight(handle, more.flight_number, more.date)) is None:
                raise InvalidDisruption(
                    f"{more.flight_number} on {more.date} is not in the schedule: check the flight and date"
                )
            others.append(other)
    assert flight is not None  # each branch found its flight or returned
    if (gone := next(filter(None, map(no_departure_left, [flight, *others])), None)) is not None:
        raise InvalidDisruption(gone)  # before the report is read for facts: a cancelled flight has none to give
    try:
        words = described.unworded(request.prompt) if described else request.prompt
        disruption, overlay = flight_facts(
            words, flight, others, handle, now or request.reported_at, report_model(llm), facts, by, reads
        )
    except (ReportContradictsData, FactsRefused) as exc:
        raise InvalidDisruption(str(exc)) from None
    if described is not None:
        disruption = disruption.model_copy(update={"facts": [*disruption.facts, described.fact()]})
    if by_registration:  # the aircraft is the scope
        disruption = tail_scope(disruption)
    if others:  # several flights named: one network disruption over the set, refused here as an airport's would be
        _check_network_scope(disruption, handle.with_overlay(overlay), now or request.reported_at)
    return flight_run(flight, description, disruption, overlay)


def _initial_state(
    validated: ValidatedRequest,
    request: DisruptionRequest,
    store: ArtifactStore,
    trail: AuditTrail | None,
    plan: RetryPlan | None,
) -> dict[str, Any]:
    """The run's state after Validate, its request artifact and audit record, and the rounds a resume reuses."""
    disruption, overlay, execution_name = validated.disruption, validated.overlay, validated.execution_name
    assert disruption is not None  # Validate always resolves the facts
    state: dict[str, Any] = dict.fromkeys(STATE_KEYS)
    state["request"] = validated.model_dump(mode="json")
    store.put(run_key(request.disruption_id, execution_name, "request"), state["request"])
    if trail is not None:
        trail.append(
            request.disruption_id,
            "request",
            f"request:{execution_name}",
            {
                "prompt": request.prompt,
                "source": request.source,
                "flight_id": validated.flight_id,
                "flights": disruption.scope.flights,
                "resume": request.resume,
                "retry": {"initial": plan.initial, "revision": plan.revision} if plan else None,
                "iata_delay_code": disruption.iata_delay_code,
                "scope": disruption.scope.kind,
                # who corrected which fact, what had been read and what it became; what the reading is unsure of
                "corrections": [c.model_dump(mode="json") for c in disruption.corrections],
                "corrects": request.corrects,
                "unsure": [u.model_dump(mode="json") for u in disruption.unsure],
                "what_if": overlay.describe(),
                "artifact": trail.artifact(store.bucket, run_key(request.disruption_id, execution_name, "request")),
            },
            actor=request.requested_by or request.source,
            execution_name=execution_name,
        )
    if plan is not None:  # a retry: only the agents that failed run again (workflow/runs/retry.py)
        for key, kept in (("phase1", plan.phase1), ("phase2", plan.phase2)):
            state[key] = kept.model_dump(mode="json") if kept else None
    elif request.resume:  # an earlier run's finished phases are not run again, if they are as its trail hashed them
        from ..runs.reuse import CheckpointRefused, record_reuse, reusable_rounds

        try:
            rounds = reusable_rounds(
                request.disruption_id,
                validated.resumes or request.disruption_id,
                store=store,
                trail=trail,
                through=request.reuse_through,
            )
        except CheckpointRefused as exc:
            raise InvalidDisruption(str(exc)) from None
        for reused in rounds:
            result = record_reuse(
                reused, disruption_id=request.disruption_id, execution_name=execution_name, store=store, trail=trail
            )
            state[reused.state_key] = result.model_dump(mode="json")
    return state
