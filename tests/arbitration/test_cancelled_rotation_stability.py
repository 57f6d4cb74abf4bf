"""Network stability counts every flight a plan cancels: a rotation's cancellation is as many holes in the day as
flights it cancels, so it never looks steadier than a wait that delays fewer later flights (ordinary day seed 3,
E003: cancelling EY142 and the rotation's 6 later flights outranked the crew's rest wait on stability)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st
from row_builders import bare_scenario

from skymarshal.arbitration.actions import CancelFlight, DelayFlight
from skymarshal.arbitration.models import ValidatedScenario
from skymarshal.arbitration.ranking import raw_criteria

pytestmark = pytest.mark.unit


def _stability(scenario) -> float:
    return raw_criteria(ValidatedScenario(scenario=scenario, checks=[], rejections=[]))["network_stability"]


@given(st.integers(0, 15))
def test_cancelling_the_flight_and_its_later_flights_is_less_stable_than_delaying_those_later_flights(later):
    cancel = bare_scenario(
        [CancelFlight(flight_id=f"F{i}", reason="rotation") for i in range(later + 1)], "cancel:rotation", "cancel"
    )
    departs = datetime(2027, 1, 20, 20, tzinfo=UTC)
    delay = DelayFlight(
        flight_id="F0", delay_minutes=600, new_departure=departs, new_arrival=departs + timedelta(hours=7)
    )
    wait = bare_scenario([delay], "delay:600").model_copy(update={"downstream_flights_delayed": later})
    assert _stability(cancel) == later + 1
    assert _stability(cancel) > _stability(wait)


def test_a_cancellation_named_without_its_actions_is_one_hole():
    assert _stability(bare_scenario([], "cancel:bare", "cancel")) == 1
