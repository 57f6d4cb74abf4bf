"""A crew position a report names on a flight must be on the flight's roster whatever the crew cause — sick, late
for the briefing, not signed on — and in whatever way it is written (second officer, S/O, 2/O, flight engineer,
F/E): this airline rosters neither rank, so each is refused on one line naming it; a rostered one runs."""

from __future__ import annotations

import pytest
from test_validate_corrections import DEMO, run  # noqa: F401  (the fixture: Validate on the seeded airline)

from skymarshal.workflow.steps.validate import InvalidDisruption

FLIGHT = "Flight EY123 on January 20th:"


@pytest.mark.parametrize(
    ("named", "rank"),
    [
        ("the second officer", "second officer"),
        ("S/O", "second officer"),
        ("2/O", "second officer"),
        ("the flight engineer", "flight engineer"),
        ("F/E", "flight engineer"),
    ],
)
@pytest.mark.parametrize("what", ["was late for the briefing", "called in sick", "did not report for duty"])
def test_a_position_nobody_holds_is_refused_whatever_the_crew_cause(run, named, rank, what) -> None:  # noqa: F811
    with pytest.raises(InvalidDisruption, match=f"no {rank}") as refused:
        run(f"{FLIGHT} {named} {what}, DLA 20")
    assert "\n" not in str(refused.value) and "EY123" in str(refused.value)


@pytest.mark.parametrize("what", ["was late for the briefing", "called in sick"])
def test_a_rostered_position_runs(run, what) -> None:  # noqa: F811
    request = run(f"{FLIGHT} the captain {what}, DLA 20")
    assert request["disruption"]["family"] == "flight_operations_crew"
