"""A flight number on a route it does not fly is an input error naming both — Validate refuses it on one line
(InvalidDisruption: the run ends as `input_error`, never `failed`) — whether the route's other end is an airport the
airline serves or not; its own route runs."""

from __future__ import annotations

import pytest
from test_validate_corrections import run  # noqa: F401  (the fixture: Validate on the seeded airline)

from skymarshal.workflow.steps.validate import InvalidDisruption


@pytest.mark.parametrize("route", ["AUH-DXB", "FRA-AUH", "AUH-LHR", "AUH/CDG"])
def test_a_route_the_flight_does_not_fly_is_an_input_error_naming_both(run, route) -> None:  # noqa: F811
    with pytest.raises(InvalidDisruption) as refused:
        run(f"Flight EY123 {route} on January 20th had a mechanical failure")
    message = str(refused.value)
    assert "\n" not in message and "EY123 flies AUH-FRA" in message and route.replace("/", "-") in message


def test_its_own_route_runs(run) -> None:  # noqa: F811
    request = run("Flight EY123 AUH-FRA on January 20th had a mechanical failure")
    assert request["disruption"]["family"] == "technical"
