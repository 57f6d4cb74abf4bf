"""Crew-side feasibility of a recovery plan: every crew pairing of the instance still flies a legal duty.

A pairing's slack per leg comes from the rules engine (`recovery.crew_pairings`, ORO.FTL.205/210/235 through
`rules.crew.latest_legal_delay`); here it is only compared, so the checker, the planner and the search read one
number. Three refusals, one typed `Violation` each:
- ``crew_duty``: a leg leaves later than its crew's duty allows (FDP, cumulative duty or the rest before the next
  duty would be exceeded);
- ``crew_position``: a leg leaves from where its crew is not — the crew reports at its start station and is then
  where its last operated leg landed (a cancelled leg leaves the crew where it was; positioning as passengers is
  not modelled, the conservative side);
- ``crew_connection``: the crew changes aircraft between two legs with less than the pairing's connection time.
A cancelled leg breaks no duty (the crew is released from it); the pairing's remaining legs must still chain.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .flight_checks import Violation, date_text, planned_departure, violation
from .model import CrewPairing, FlightView, Instance, SolutionView

FlightsByKey = Mapping[tuple[int, int], FlightView]


def check_crews(instance: Instance, solution: SolutionView) -> Iterator[Violation]:
    """Every crew pairing of the instance under the solution's times and tails (none in the 2009 instances)."""
    if not instance.crews:
        return
    by_key = {(f.number, f.day): f for f in solution.flights}
    for pairing in instance.crews:
        yield from check_pairing(instance, pairing, by_key)


def check_pairing(instance: Instance, pairing: CrewPairing, by_key: FlightsByKey) -> Iterator[Violation]:
    """One pairing's operated legs: each within its slack, from where the crew is, with time to change aircraft."""
    where, previous = pairing.start_airport, None
    for ref, slack in zip(pairing.legs, pairing.slack):
        f = by_key.get((ref.number, ref.day))
        if f is None or f.aircraft is None:
            continue  # cancelled (or missing: the flight checks report that): the crew stays where it is
        when = date_text(instance, ref.day)
        late = f.departure - planned_departure(instance, ref.number, ref.day)
        if late > slack:
            yield violation(
                "crew_duty",
                f"Crew pairing {pairing.id}: flight {ref.number} on {when} leaves {late} min late, its duty is legal "
                f"to {slack} min ({pairing.why or 'ORO.FTL.205 FDP'})",
            )
        if f.origin != where:
            yield violation(
                "crew_position",
                f"Crew pairing {pairing.id} is at {where}, not at {f.origin} for flight {ref.number} on {when}",
            )
        elif (
            previous is not None
            and previous.aircraft != f.aircraft  # on the same aircraft its turn-round is the crew's too
            and f.departure < previous.arrival + pairing.connect
        ):
            yield violation(
                "crew_connection",
                f"Crew pairing {pairing.id} lands with flight {previous.number} at minute {previous.arrival}, "
                f"under {pairing.connect} min before flight {ref.number} on {when} on another aircraft",
            )
        where, previous = f.destination, f


def crew_slack(instance: Instance) -> dict[tuple[int, int], int]:
    """(number, day) → the most minutes the flight may leave late with every crew on it legal (the tightest
    pairing's slack); flights no pairing flies are absent (unbounded by crews)."""
    out: dict[tuple[int, int], int] = {}
    for pairing in instance.crews:
        for ref, slack in zip(pairing.legs, pairing.slack):
            key = (ref.number, ref.day)
            out[key] = min(out.get(key, slack), slack)
    return out
