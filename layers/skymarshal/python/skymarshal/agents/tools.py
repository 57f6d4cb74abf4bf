"""LangChain tools an agent's model may call before it writes: data only, through the agent's own
access-guarded handle and the rules engine. A tool never recommends; the formatter (the model) explains."""

from __future__ import annotations

from langchain_core.tools import BaseTool, tool

from ..analysis import business
from ..analysis.crew import crew_legality
from ..data import queries as q
from ..data.access import DataHandle
from ..models.operational import Flight
from ..rules import network as network_rules


def agent_tools(agent: str, handle: DataHandle, flight: Flight) -> list[BaseTool]:
    @tool
    def flight_details() -> dict:
        """The disrupted flight's schedule, aircraft, status and delay."""
        return flight.model_dump(mode="json")

    @tool
    def crew_legality_at_delay(delay_minutes: int) -> list[dict]:
        """Each rostered crew member's legality if the flight departs `delay_minutes` late (rules engine)."""
        return [
            {
                "crew_id": r.crew_id,
                "rank": r.rank,
                "legal": r.legal,
                "illegal": [f.clause for f in r.findings if f.status == "illegal"],
            }
            for r in crew_legality(handle, flight, delay_minutes)
        ]

    @tool
    def aircraft_work_orders(registration: str) -> list[dict]:
        """Open and recent work orders (with MEL items) of an aircraft."""
        return [w.model_dump(mode="json") for w in q.work_orders_for_aircraft(handle, registration)]

    @tool
    def airport_weather(iata: str) -> list[dict]:
        """Hourly weather at an airport from two hours before to six hours after the flight's arrival."""
        from datetime import timedelta

        rows = q.weather(handle, iata.upper(), flight.arrival - timedelta(hours=2), flight.arrival + timedelta(hours=6))
        return [w.model_dump(mode="json") for w in rows]

    @tool
    def rotation_delay(delay_minutes: int) -> dict:
        """How a delay of `delay_minutes` propagates along the aircraft's later flights (turn buffers)."""
        from datetime import timedelta

        legs = q.rotation(
            handle,
            flight.aircraft_registration,
            flight.scheduled_departure - timedelta(hours=1),
            flight.scheduled_departure + timedelta(hours=30),
        )
        return network_rules.propagate_delay(legs, flight.flight_id, delay_minutes).model_dump(mode="json")

    @tool
    def impact_at_delay(delay_minutes: int) -> dict:
        """This agent's impact (passengers, cargo or cost) if the flight is `delay_minutes` late."""
        analyse = {
            "guest_experience": business.analyse_guest,
            "cargo": business.analyse_cargo,
            "finance": business.analyse_finance,
            "network": business.analyse_network,
        }[agent]
        result = analyse(handle, flight, delay_minutes=delay_minutes)
        return {"impact": result.impact.model_dump(mode="json") if result.impact else None, "facts": result.facts}

    by_agent = {
        "crew_compliance": [crew_legality_at_delay],
        "maintenance": [aircraft_work_orders],
        "regulatory": [airport_weather],
        "network": [rotation_delay, impact_at_delay],
        "guest_experience": [impact_at_delay],
        "cargo": [impact_at_delay],
        "finance": [impact_at_delay],
    }
    return [flight_details, *by_agent[agent]]
