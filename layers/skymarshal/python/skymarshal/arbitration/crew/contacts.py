"""Who must be called when a plan is carried out: the crew members whose duty it changes, flight by flight.

One definition for the arbitrator (the execution-risk criterion counts them: `ranking.raw_criteria`) and for the
contact list Execute sends (messages/build.py writes what each is told). A crew member's duty changes when they are
- called out: a reserve replacing a rostered member, a cabin crew member added for a larger type, a ferry crew;
- released: replaced, stood down (unavailable, the flight operating without them), or rostered on a flight the plan
  cancels;
- delayed: rostered on a flight that leaves `CREW_DELAY_NOTICE_MINUTES` or more late (a later report).
A swap on time or a delay shorter than that changes no one's duty: no call. Vendors' crew-tracking tools minimise
the same count; each call is one more chance that someone is not reached in time.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from typing import Literal

from ..actions import (
    AddCabinCrew,
    CancelFlight,
    ContinueFlight,
    DelayFlight,
    FerryAircraft,
    ReassignCrew,
    StandDownCrew,
)
from ..models import Scenario

CREW_DELAY_NOTICE_MINUTES = 30  # a later report than this is a changed duty the crew member is called about
CrewChangeKind = Literal["called_out", "released", "delayed"]
CrewChange = tuple[str, CrewChangeKind, object]  # crew id, what changes, the action that changes it


def _own_changes(a: object) -> Iterator[tuple[str, CrewChangeKind]]:
    """The crew members an action itself calls out, releases or re-times."""
    if isinstance(a, ReassignCrew):
        for old, new in a.replacements.items():
            yield old, "released"
            yield new, "called_out"
    elif isinstance(a, StandDownCrew):  # unavailable: told their sectors are released
        for crew_id in a.crew_ids:
            yield crew_id, "released"
    elif isinstance(a, AddCabinCrew):
        for crew_id in a.crew_ids:
            yield crew_id, "called_out"
    elif isinstance(a, FerryAircraft):
        for crew_id in a.crew.values():
            yield crew_id, "called_out"
    elif isinstance(a, ContinueFlight):  # reserves at the alternate called, the rostered crew's duty changes
        for crew_id in a.crew:
            yield crew_id, "called_out" if crew_id in a.called_out else "delayed"
        for old in a.called_out.values():
            yield old, "released"


def crew_changes(actions: Sequence[object], rostered: Sequence[str]) -> Iterator[CrewChange]:
    """(crew id, change, action) for each crew member whose duty on one flight changes under its `actions`;
    `rostered`: the crew ids rostered on that flight before the plan."""
    replaced: set[str] = set()
    for a in actions:
        for crew_id, change in _own_changes(a):
            if change == "released":
                replaced.add(crew_id)
            yield crew_id, change, a
    on_board = [c for c in rostered if c not in replaced]
    cancel = next((a for a in actions if isinstance(a, CancelFlight)), None)
    delay = next((a for a in actions if isinstance(a, DelayFlight)), None)
    if cancel is not None:
        for crew_id in on_board:
            yield crew_id, "released", cancel
    elif delay is not None and delay.delay_minutes >= CREW_DELAY_NOTICE_MINUTES:
        for crew_id in on_board:
            yield crew_id, "delayed", delay


def moved_flights(scenario: Scenario) -> list[str]:
    """The flights whose rostered crew a plan may disturb by itself (it cancels or retimes them)."""
    return sorted({a.flight_id for a in scenario.actions if isinstance(a, (CancelFlight, DelayFlight))})


def crew_to_contact(scenario: Scenario, rostered: Mapping[str, Sequence[str]]) -> int:
    """How many distinct crew members the plan's execution must call; `rostered`: flight id → its crew ids (at
    least those of `moved_flights`)."""
    by_flight: dict[str, list[object]] = defaultdict(list)
    for action in scenario.actions:
        by_flight[action.flight_id].append(action)
    return len(
        {crew_id for fid, acts in by_flight.items() for crew_id, _, _ in crew_changes(acts, rostered.get(fid, ()))}
    )
