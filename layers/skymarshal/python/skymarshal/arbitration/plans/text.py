"""What a scenario says to the duty manager: its title and its pros and cons."""

from __future__ import annotations

from ..context import DisruptionContext
from ..models import Scenario


def title(kind, delay, registration, alternate, replacements) -> str:
    crew = f" with {len(replacements)} reserve crew" if replacements else ""
    if kind == "tail_swap":
        return f"Swap to {registration}" + (f", {delay} min late" if delay else ", on time") + crew
    if kind == "crew_swap":
        return f"Replace {len(replacements)} crew with legal reserves, {delay} min late"
    if kind == "rescue_aircraft":
        return f"Rescue aircraft {registration} ferried in, {delay} min late" + crew
    if kind == "divert":
        return f"Divert to {alternate}" + (f", {delay} min late" if delay else "") + ", coach to the destination"
    return f"Delay {delay} min" + crew


def pros_cons(ctx: DisruptionContext, s: Scenario, moved: int) -> dict:
    pros: list[str] = []
    cons: list[str] = []
    (pros if s.arrival_delay_minutes < 180 else cons).append(
        f"passengers arrive {s.arrival_delay_minutes} min late"
        if s.arrival_delay_minutes
        else "passengers arrive on time"
    )
    comp = s.cost_by_component.get("compensation", 0)
    (cons if comp else pros).append(
        f"EU261/UK261 compensation USD {comp:,.0f}" if comp else "no EU261/UK261 compensation"
    )
    if s.operates:
        (cons if s.downstream_flights_delayed else pros).append(
            f"{s.downstream_flights_delayed} later flight(s) of the rotation delayed"
            if s.downstream_flights_delayed
            else "the rest of the rotation is untouched"
        )
    cons.extend(s.execution_notes)
    if moved:
        cons.append(f"{moved} passenger(s) downgraded or offloaded to fit the cabin")
    if s.crew_replacements:
        cons.append(f"{len(s.crew_replacements)} reserves called out (depletes standby cover)")
    if s.kind == "divert":
        cons.append(f"aircraft ends at {s.arrival_airport} and must be ferried")
    if s.kind == "rescue_aircraft":
        pros.append(f"{s.registration} replaces the grounded aircraft without waiting for its release")
        cons.append("an empty ferry flight and a ferry crew called out from standby")
    if s.kind == "cancel":
        pros.append("no safety constraint can be broken: nothing operates")
        cons.append(
            f"all {s.passengers_impacted} passengers disrupted, average {s.delay_minutes // 60} h to destination"
        )
    cons.append(f"cost USD {s.cost_usd:,.0f}")
    return {"pros": pros, "cons": cons}
