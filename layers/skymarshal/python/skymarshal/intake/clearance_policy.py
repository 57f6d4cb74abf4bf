"""What kind of end a cause has, and the company policy's estimate of it when neither the report nor the airline's
record gives one (verify per operator before use).

The kind follows the cause (AHM 730): a technical defect or damage ends when the aircraft is released, a crew
cause when a crew member is fit or replaced, weather or an airport or airspace window when the station reopens,
an ATFM regulation at the slot (CTOT), anything else (handling, passengers, security, a late inbound) when the
flight itself is released. Every policy entry is data with its reason; `minutes` is the estimate and `margin`
the upper bound past it (the re-decision point), both from `base`: the scheduled departure (a hold on the flight)
or the decision time (work that starts when the decision is taken).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..models.disruption import ClearanceKind, DelayFamily, Disruption, family_of
from ..rules import what_if_policy

POLICY = "company policy (clearance estimates, verify)"
PolicyBase = Literal["departure", "decision"]

CREW_CODES = frozenset({63, 64, 65, 66, 67, 68, 94, 95})
ATFM_CODES = frozenset({81, 82, 83, 84, 88, 89})  # as the what-if overlay plans them: a slot
RELEASE_CODES = frozenset({41, 42, 43, 44, 45, 46, 47, 48, 51, 52})
CREW_FACTS = frozenset({"crew_unavailable", "crew_fatigue"})
AIRCRAFT_FACTS = frozenset({"aircraft_defect", "aircraft_damage", "aircraft_on_ground"})


class PolicyEntry(BaseModel):
    """One policy estimate: how long from `base`, the margin past it, and why."""

    model_config = ConfigDict(frozen=True)

    minutes: int = Field(gt=0)
    margin: int = Field(ge=0)
    base: PolicyBase
    reason: str


# A crew member replaced: a standby reserve where the airline rosters standby at that station (its base) reports
# from call-out within the standby's response time (EASA ORO.FTL.225: airport or home standby, the operator's
# response time) plus briefing; away from base a replacement is positioned from base on the airline's own flights
# or taken from a layover crew after its rest.
CREW_AT_BASE = PolicyEntry(
    minutes=120,
    margin=60,
    base="decision",
    reason="a standby reserve at base called out: response time and briefing (ORO.FTL.225)",
)
CREW_AWAY = PolicyEntry(
    minutes=480,
    margin=240,
    base="decision",
    reason="away from base: a replacement positioned from base, or a layover crew after its rest",
)
# A crew member unfit through fatigue is fit again after a rest period: at least 10 h away from home base
# (EASA ORO.FTL.235(b)); sickness has no such end, hence replacement above.
CREW_FATIGUE = PolicyEntry(
    minutes=600,
    margin=120,
    base="decision",
    reason="fit again after the minimum rest away from base, 10 h (EASA ORO.FTL.235(b))",
)
WEATHER = PolicyEntry(
    minutes=what_if_policy.WEATHER_HOURS * 60,
    margin=60,
    base="departure",
    reason=f"a weather event with no window: {what_if_policy.WEATHER_HOURS} h, as the what-if overlay plans it",
)
CLOSURE = PolicyEntry(
    minutes=what_if_policy.CLOSURE_HOURS * 60,
    margin=60,
    base="departure",
    reason=f"a closure with no window: {what_if_policy.CLOSURE_HOURS} h, as the what-if overlay plans it",
)
SLOT_MARGIN = 30  # slots are revised by the flow manager: half an hour past the planned one re-opens the decision
# A hold on the flight itself, by AHM 730 family (a code's own entry first): the time to plan with until the station
# says more.
RELEASE_BY_CODE: dict[int, PolicyEntry] = {
    85: PolicyEntry(minutes=60, margin=60, base="departure", reason="security: a search or re-screening, 1 h"),
    86: PolicyEntry(minutes=45, margin=45, base="departure", reason="immigration, customs or health: 45 min"),
    87: PolicyEntry(minutes=60, margin=60, base="departure", reason="airport facilities restored: 1 h"),
    97: PolicyEntry(minutes=240, margin=240, base="departure", reason="industrial action within the airline: 4 h"),
    98: PolicyEntry(minutes=240, margin=240, base="departure", reason="industrial action outside the airline: 4 h"),
}
RELEASE_BY_FAMILY: dict[DelayFamily, PolicyEntry] = {
    "passengers_baggage": PolicyEntry(
        minutes=30, margin=30, base="departure", reason="passengers or baggage: offload or reconcile, 30 min"
    ),
    "cargo_mail": PolicyEntry(
        minutes=45, margin=30, base="departure", reason="cargo or mail: documents or offload, 45 min"
    ),
    "aircraft_ramp_handling": PolicyEntry(
        minutes=45, margin=30, base="departure", reason="ramp handling: equipment or staff replaced, 45 min"
    ),
    "technical": PolicyEntry(minutes=60, margin=60, base="departure", reason="technical: 1 h"),
    "damage_automation": PolicyEntry(
        minutes=60, margin=60, base="departure", reason="an automated system (DCS, flight plans): fallback, 1 h"
    ),
    "flight_operations_crew": PolicyEntry(
        minutes=30, margin=30, base="departure", reason="flight plan or load change: 30 min"
    ),
    "weather": WEATHER,
    "atfm_airport_government": PolicyEntry(minutes=60, margin=60, base="departure", reason="airport restriction: 1 h"),
    "reactionary": PolicyEntry(
        minutes=60, margin=60, base="departure", reason="a late inbound, load or connection: 1 h"
    ),
    "miscellaneous": PolicyEntry(minutes=60, margin=60, base="departure", reason="other: 1 h"),
}


def clearance_kind(disruption: Disruption) -> ClearanceKind:
    """What ends the cause, from its AHM 730 code and the facts it states: an airport or airspace window reopens,
    an ATFM regulation gives a slot, a defect or damage releases the aircraft, a crew cause makes a crew member
    available, weather clears at the station, anything else releases the flight."""
    code = disruption.iata_delay_code
    facts = {f.name for f in disruption.facts}
    if disruption.scope.kind in ("airport", "airspace"):
        return "station_reopens"
    if code in ATFM_CODES:
        return "ctot"
    if code in RELEASE_CODES or (AIRCRAFT_FACTS & facts and family_of(code) in ("technical", "damage_automation")):
        return "aircraft_release"
    if code in CREW_CODES or disruption.scope.kind == "crew_member" or CREW_FACTS & facts:
        return "crew_available"
    if family_of(code) == "weather" or code == 87:
        return "station_reopens"
    return "flight_released"


def defect_entry(words: str) -> PolicyEntry:
    """The release of an aircraft on the ground: the labour of the inspection or repair the words name, the same
    entry the what-if work order is opened with (rules/what_if_policy.py), work starting at the decision; half the
    labour again as the margin (parts, a re-inspection, the certificate of release to service)."""
    estimate = what_if_policy.defect_estimate(words)
    minutes = round(estimate.labour_hours * 60)
    return PolicyEntry(minutes=minutes, margin=max(30, minutes // 2), base="decision", reason=estimate.citation())


def slot_entry(code: int) -> PolicyEntry:
    """An ATFM regulation with no CTOT stated: the slot delay the what-if overlay plans with (what_if_policy)."""
    minutes = what_if_policy.slot_minutes(code)
    return PolicyEntry(
        minutes=minutes,
        margin=SLOT_MARGIN,
        base="departure",
        reason=f"{what_if_policy.POLICY}: AHM 730 code {code} planned at {minutes} min until the slot is known",
    )


def release_entry(code: int) -> PolicyEntry:
    """A hold on the flight itself: the code's own entry, else its family's."""
    return RELEASE_BY_CODE.get(code) or RELEASE_BY_FAMILY[family_of(code)]
