"""The hindsight's foresight day (day/foresight.py, issue 47): the greedy baseline's repertoire decided with every
event known, by the day's cost. With one event both see the same options made legal the same way, so the day the
foresight keeps never costs more (by the day's valuation) than the on-line greedy's; and the hindsight keeps the
cheapest of its days, so it is at or below its foresight day."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_legal_baselines import DAY, crewed, holds

from skymarshal.day.baselines import play_baseline
from skymarshal.day.foresight import foresight_day
from skymarshal.day.hindsight import hindsight_plan
from skymarshal.day.hindsight_crews import day_cost
from skymarshal.day.scorecard import score


@given(event=holds, reserves=st.integers(0, 2), reserve_start=st.integers(0, 20))
@settings(max_examples=25, deadline=None)
def test_with_the_day_known_the_greedy_repertoire_never_costs_the_day_more(event, reserves, reserve_start):
    tables = crewed(reserves, 8, reserve_start)
    greedy = play_baseline("greedy", tables, [event], [DAY])
    foresight = foresight_day(tables, [event], [DAY])
    card = score("foresight", foresight, [event], [DAY])
    assert day_cost(card) <= day_cost(greedy.card) + 1e-6
    assert card.crew_violations == 0 and card.rotation_breaks == 0


@given(event=holds)
@settings(max_examples=6, deadline=None)
def test_the_hindsight_is_at_or_below_its_foresight_day(event):
    tables = crewed(1, 8, 6)
    bound = score("hindsight", hindsight_plan(tables, [event], DAY, time_limit_s=0.2), [event], [DAY])
    foresight = score("foresight", foresight_day(tables, [event], [DAY]), [event], [DAY])
    assert day_cost(bound) <= day_cost(foresight) + 1e-6
