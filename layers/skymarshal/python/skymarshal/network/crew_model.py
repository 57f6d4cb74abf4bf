"""Crews inside the network planner's optimizer (issue 47): the rostered crews of the window's flights enter each
rating group's recovery instance as pairings (`recovery.crew_pairings`, slack from the rules engine), so the
optimizer never retimes an in-scope flight past what its crew may legally fly, nor strands a crew by a swap or a
cancellation (`recovery.crew_checks`). Crewability (`network.crewability.make_crewable`) still runs on every plan after:
reserves, and the crews of flights outside the scope (tails' later flights past the horizon), are its part.

The roster reads are `CrewData`'s (a Query on flight-position-index per flight, a member's rows on their key),
cached for the crewability and the validation that read the same rows after.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..models.operational import CrewDuty, CrewMember
from ..recovery.adapter import AdaptedInstance
from ..recovery.crew_pairings import crew_pairings
from ..recovery.model import CrewPairing, Instance
from .crew import CrewData


def crew_tables(
    crew: CrewData, flight_ids: Iterable[str]
) -> tuple[dict[str, list[CrewDuty]], dict[str, list[CrewDuty]], dict[str, CrewMember]]:
    """(flight id → its FLIGHT roster rows, crew id → the member's roster, crew id → the member) for the flights."""
    crew_on = {fid: [r for r in crew.assignments(fid) if r.kind == "FLIGHT"] for fid in flight_ids}
    members = crew.members(sorted({r.crew_id for rows in crew_on.values() for r in rows}))
    rosters = {cid: crew.history(cid) for cid in members}
    return crew_on, rosters, members


class CrewModel:
    """The pairings of each rating group, computed once and laid on every objective's instance of the group."""

    def __init__(self, crew: CrewData, in_scope: set[str]):
        self.crew = crew
        self.in_scope = in_scope
        self._pairings: dict[str, tuple[CrewPairing, ...]] = {}

    def instance(self, group: str, adapted: AdaptedInstance) -> Instance:
        """The group's instance with the crews of its in-scope flights as resources."""
        if group not in self._pairings:
            numbers = {fid: n for fid, n in adapted.numbers.items() if fid in self.in_scope}
            tables = crew_tables(self.crew, numbers)
            self._pairings[group] = tuple(crew_pairings(adapted.instance, numbers, *tables))
        return adapted.instance.model_copy(update={"crews": self._pairings[group]})
