"""What the arbitrator knows about one disruption before it builds scenarios: the flight, the revised
collation, the data it re-reads to re-check each scenario, and what kind of disruption this is."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from ..analysis.crew import member_roster, roster_window
from ..data import queries as q
from ..data.access import DataHandle
from ..models.agent_response import AgentResponse, MaintenanceConstraint, RegulatoryConstraint
from ..models.disruption import Clearance, Disruption, history_type
from ..models.history import DisruptionType
from ..models.operational import AirportProfile, Booking, CrewDuty, Flight
from ..rules.standby import standby_covering
from .bounds import AircraftGroundedBound, CrewIllegalBound, SafetyBound, bounds_from
from .memo_keys import MemoKey, NoProfile, RosterRead, StandbyRead
from .plans.clearance_wait import departs_after

ROTATION_AHEAD = timedelta(hours=30)
# AHM 730 codes outside the technical and weather families that another aircraft can answer: damage to this
# one (51-52), a late inbound aircraft (93), operations control and "other" (96, 99: the report says no more)
SWAP_ANSWERS = frozenset({51, 52, 93, 96, 99})
# Clearances that keep the flight on the ground whatever aircraft or crew flies it: a station closed, a slot, the
# flight itself held (security, the authorities). An aircraft's release or a crew member's availability is not one.
FLIGHT_HOLDS = frozenset({"station_reopens", "ctot", "flight_released"})
# AHM 730 families whose cause holds the flight, not the aircraft: weather (71-77: at the station, de-icing) and
# ATFM, airport and governmental restrictions (81-89: a slot, a closed runway, a security hold)
HOLD_FAMILIES = frozenset({"weather", "atfm_airport_government"})
# EU261 Art. 5(3) cause keys (rules.eu261.EXTRAORDINARY_CIRCUMSTANCES) by disruption type.
CAUSE = {"mechanical": "technical", "crew": "crew", "weather": "weather", "atc": "atc", "other": None}


@dataclass
class DisruptionContext:
    prompt: str
    flight: Flight
    collation: dict[str, AgentResponse]
    handle: DataHandle
    now: datetime
    bookings: list[Booking]
    rotation: list[Flight]
    profiles: dict[str, AirportProfile]
    bounds: list[SafetyBound]
    disruption_type: DisruptionType
    release_at: datetime | None  # the grounded tail's estimated release: maintenance's, else the clearance's
    tail_grounded: bool
    weather_window: tuple[str, datetime, datetime] | None  # airport, no landing from, until
    disruption: Disruption  # the report's facts (Validate's): the only reading of the report
    _cache: dict[MemoKey, Any] = field(default_factory=dict)

    @property
    def cause(self) -> str | None:
        return CAUSE[self.disruption_type]

    @property
    def aircraft_caused_delay(self) -> bool:
        """Whether a different aircraft would remove the flight's current delay: only when the delay is the
        aircraft's own (a technical fault, a late inbound) and nothing else (ATC, weather) shares in it."""
        reason = (self.flight.delay_reason or "").upper()
        return reason.startswith("TECHNICAL") or (reason.startswith("REACTIONARY") and "ATC" not in reason)

    @property
    def swap_addresses_cause(self) -> bool:
        """Whether another aircraft can answer the reported cause: the aircraft's own (a defect, damage, a late
        inbound aircraft), weather (another type may have a higher crosswind limit: validation decides), or a cause
        the report leaves open — never a slot, a crew, a passenger, cargo or ramp cause, which any aircraft meets
        alike (AHM 730 11-39, 61-69, 81-92, 94-95, 97-98), unless the tail itself is grounded."""
        if self.tail_grounded:
            return True
        code = self.disruption.iata_delay_code
        return self.disruption.family in ("technical", "weather") or code in SWAP_ANSWERS

    @property
    def clears(self) -> Clearance | None:
        """When the report's cause is expected to clear (Disruption.clears): the estimate a wait is validated at."""
        return self.disruption.clears

    @property
    def crew_available_from(self) -> dict[str, datetime]:
        """The members the report makes unavailable, each with the earliest off-blocks they can operate
        (``awaited_crew``): the rules judge them fit for a departure from then on, and the plan is at risk."""
        return awaited_crew(self.disruption)

    @property
    def holds_the_flight(self) -> bool:
        """Whether the cause keeps the flight on the ground whatever aircraft or crew flies it: weather at the
        station, a slot or CTOT, a closed runway or station, a hold of the flight itself (AHM 730 71-77, 81-89, or a
        clearance of that kind) — unless the tail itself is grounded, which another aircraft does answer. A tail or
        crew swap then saves nothing and is never rank 1 (ranking.hold_first)."""
        if self.tail_grounded:
            return False
        if self.clears is not None and self.clears.kind in FLIGHT_HOLDS:
            return True
        return self.disruption.family in HOLD_FAMILIES

    def profile(self, iata: str) -> AirportProfile | None:
        if iata not in self.profiles:
            found = q.airport_profile(self.handle, iata)
            if found is not None:
                self.profiles[iata] = found
            return found
        return self.profiles[iata]

    def read_profiles(self, iatas: Iterable[str]) -> dict[str, AirportProfile]:
        """The profiles of `iatas` (those with one), the ones not yet read fetched in one BatchGetItem; an airport
        found without a profile is remembered as such (`_cache`), not asked again."""
        wanted = sorted(set(iatas))
        missing = [i for i in wanted if i not in self.profiles and NoProfile(i) not in self._cache]
        if missing:
            found = q.airport_profiles(self.handle, missing)
            self.profiles.update(found)
            self._cache.update({NoProfile(i): True for i in missing if i not in found})
        return {i: self.profiles[i] for i in wanted if i in self.profiles}

    def memo(self, key: MemoKey, compute: Any) -> Any:
        """Data re-read for several scenarios (rosters, work orders) is read once per arbitration, under a key of
        its kind (arbitration/memo_keys.py). `compute` (a callable of no argument) and the answer stay Any, as in
        the untyped memo: the callers' lambdas bind loop variables as defaults (`lambda a=a: …`), which mypy
        cannot infer against a Callable."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]

    def memoised(self, key: MemoKey) -> bool:
        """Whether `key`'s answer is already held (a caller reading many at once asks only for the others)."""
        return key in self._cache

    def roster(self, crew_id: str, around: datetime) -> list[CrewDuty]:
        """`analysis.crew.member_roster`, each member's window (whole days) read once per arbitration. Keyed by the
        window: a roster read around one day never answers for a duty days later, whose next duties it lacks."""
        return self.memo(
            RosterRead(crew_id, roster_window(around)), lambda: member_roster(self.handle, crew_id, around)
        )

    def standby_at(self, station: str, report: datetime) -> list[CrewDuty]:
        """`rules.standby.standby_covering` (the one selection analysis.crew and network.crew use), each (station,
        local day) read once per arbitration."""
        return standby_covering(
            station,
            report,
            lambda at, day: self.memo(StandbyRead(at, day), lambda: q.standby_crew(self.handle, at, day)),
        )


def request_flight(handle: DataHandle, disruption: Disruption) -> Flight | None:
    """The flight the request is about: the first of the disruption's scope, as Validate resolved it (never read
    again from the agents' answers or the prompt)."""
    return q.get_flight(handle, disruption.scope.flights[0]) if disruption.scope.flights else None


def _grounded(collation) -> MaintenanceConstraint | None:
    response = collation.get("maintenance")
    return next(
        (
            c
            for c in (response.constraints if response else ())
            if isinstance(c, MaintenanceConstraint) and not c.airworthy
        ),
        None,
    )


def _weather(collation) -> RegulatoryConstraint | None:
    response = collation.get("regulatory")
    return next(
        (
            c
            for c in (response.constraints if response else ())
            if isinstance(c, RegulatoryConstraint) and c.constraint_type == "weather" and c.time_windows
        ),
        None,
    )


def release_estimate(maintenance: datetime | None, clears: Clearance | None) -> datetime | None:
    """When a grounded tail is expected back in service (Part-M M.A.403: only a certificate of release to service
    actually returns it; a plan flying after the estimate is at risk, never certain): maintenance's estimate and the
    clearance's aircraft-release estimate (stated, from the airline's history, or policy), the later of the two when
    both exist — an estimate only ever makes the wait longer, never shorter than what maintenance found."""
    estimate = clears.expected if clears is not None and clears.kind == "aircraft_release" else None
    known = [t for t in (maintenance, estimate) if t is not None]
    return max(known) if known else None


def awaited_crew(disruption: Disruption) -> dict[str, datetime]:
    """Crew id → the earliest off-blocks with that member, for the members the report makes unavailable (the
    what-if's ``crew_unavailable`` facts from the roster) when the report itself states when a crew member is
    available again (a ``crew_available`` clearance the report states: "ETD +155", "expected delay about 100
    minutes"): the estimate plus the sign-on lead, as the wait is planned (``clearance_wait.departs_after``). Their
    duty is still counted from its rostered report (ORO.FTL.205: the longer FDP, never a fresh one). An estimate
    from the airline's record or the policy is how long a replacement usually takes, not this member's return:
    with one, or none, they stay unavailable at any delay (a reserve or positioned crew is then the plan)."""
    clears = disruption.clears
    if clears is None or clears.kind != "crew_available" or clears.source != "stated":
        return {}
    at = departs_after(clears, clears.expected)
    return {
        str(f.value): at for f in disruption.facts if f.name == "crew_unavailable" and f.source == "data" and f.value
    }


def with_crew_available(bounds: list[SafetyBound], awaited: dict[str, datetime]) -> list[SafetyBound]:
    """The safety bounds with an awaited member's unavailability ending at their earliest off-blocks
    (``awaited_crew``), as a grounded tail's ends at its release estimate: before it no plan keeps them, after it
    validation re-judges them at the plan's times and marks it at risk. Any other crew bound is untouched."""
    return [
        b.model_copy(update={"available_from": max(awaited[c] for c in b.crew_ids)})
        if isinstance(b, CrewIllegalBound) and b.unavailable and b.crew_ids and set(b.crew_ids) <= awaited.keys()
        else b
        for b in bounds
    ]


def with_release(bounds: list[SafetyBound], registration: str, release: datetime | None) -> list[SafetyBound]:
    """The safety bounds with the disrupted tail's grounding ending at the release estimate (`release_estimate`):
    an open-ended grounding (maintenance found no time) is bounded by the clearance, and one with maintenance's own
    time keeps the later of the two. Other tails' groundings are untouched; the airworthiness check still marks a
    plan flying after the estimate at risk (validation.scenario._airworthiness)."""
    if release is None:
        return bounds
    return [
        b.model_copy(
            update={
                "release_at": max(release, b.release_at) if b.release_at else release,
                "text": b.text if b.release_at else f"{b.text} (estimated release {release:%H:%MZ})",
            }
        )
        if isinstance(b, AircraftGroundedBound) and b.registration == registration
        else b
        for b in bounds
    ]


def load_context(
    prompt: str,
    flight: Flight,
    collation: dict[str, AgentResponse],
    handle: DataHandle,
    now: datetime,
    disruption: Disruption,
) -> DisruptionContext:
    """`disruption`: the report's facts as Validate resolved them; its AHM 730 code's type is the kind of
    disruption (the one Learn files the run's history under)."""
    grounded, weather = _grounded(collation), _weather(collation)
    release = release_estimate(grounded.estimated_release if grounded else None, disruption.clears)
    rotation = q.rotation(
        handle,
        flight.aircraft_registration,
        flight.scheduled_departure - timedelta(hours=1),
        flight.scheduled_departure + ROTATION_AHEAD,
    )
    context = DisruptionContext(
        prompt=prompt,
        flight=flight,
        collation=collation,
        handle=handle,
        now=now,
        bookings=q.bookings(handle, flight.flight_id),
        rotation=rotation,
        profiles={},
        bounds=with_crew_available(
            with_release(bounds_from(collation), flight.aircraft_registration, release), awaited_crew(disruption)
        ),
        disruption_type=history_type(disruption.iata_delay_code),
        release_at=release,
        tail_grounded=grounded is not None,
        disruption=disruption,
        weather_window=(weather.affected_airports[0], weather.time_windows[0].start, weather.time_windows[-1].end)
        if weather
        else None,
    )
    for iata in (flight.origin, flight.destination):
        context.profile(iata)
    return context
