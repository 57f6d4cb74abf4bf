"""Write a Solution as sol_rotations.csv and sol_itineraries.csv in the official format."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .model import MINUTES_PER_DAY, Instance, LegView, SolutionView


def format_clock(minutes: int, day: int) -> str:
    """Absolute minutes as 'HH:MM' relative to the flight's date, with '+N' when N days later."""
    offset = minutes - day * MINUTES_PER_DAY
    days, in_day = divmod(offset, MINUTES_PER_DAY)
    text = f"{in_day // 60:02d}:{in_day % 60:02d}"
    return f"{text}+{days}" if days else text


def format_date(instance: Instance, day: int) -> str:
    return instance.date_of(day).strftime("%d/%m/%y")


def format_legs(instance: Instance, legs: Sequence[LegView]) -> str:
    return " ".join(f"{leg.number} {format_date(instance, leg.day)} {leg.cabin}" for leg in legs)


def rotations_text(instance: Instance, solution: SolutionView) -> str:
    lines = [
        f"{f.number} {f.origin} {f.destination} {format_clock(f.departure, f.day)} {format_clock(f.arrival, f.day)} "
        f"{f.previous} {format_date(instance, f.day)} {f.aircraft or 'cancelled'}"
        for f in solution.flights
    ]
    return "\n".join(lines + ["#"]) + "\n"


def itineraries_text(instance: Instance, solution: SolutionView) -> str:
    lines = [
        f"{i.id} {i.kind} {i.price!r} {i.passengers} {format_legs(instance, i.legs) if i.legs else 'cancelled'}"
        for i in solution.itineraries
    ]
    return "\n".join(lines + ["#"]) + "\n"


def write_solution(instance: Instance, solution: SolutionView, folder: Path | str) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sol_rotations.csv").write_text(rotations_text(instance, solution))
    (folder / "sol_itineraries.csv").write_text(itineraries_text(instance, solution))
