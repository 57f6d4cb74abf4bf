"""The network decision's Gantt (views.gantt_network) on the hand-built AUH fog closure: every flight of the plan's
table drawn on the tail that flies it, at the time it flies, beside the original; the swap on both tails; the
cancellation outlined where it was; the reserve called out and the captain taken off; the closure as a band."""

from __future__ import annotations

from network_sample import CANCELLED, RETIMED, SWAPPED, WINDOW, network_output_dict

from skymarshal.arbitration.models import ArbitratorOutput
from skymarshal.views.gantt_network import build_network_gantt


def _chart():
    view = build_network_gantt("net-1", ArbitratorOutput.model_validate(network_output_dict()))
    assert [p.scenario_id for p in view.plans] == ["network:min_delay"]  # the rejected plan is not ranked
    return view, view.plans[0]


def _bars(plan, tail: str, layer: str) -> dict[str, tuple[str, str]]:
    (row,) = [r for r in plan.tails if r.key == tail]
    return {b.flight_id: (b.change, b.start.strftime("%H:%M")) for b in row.bars if b.layer == layer}


def test_each_flight_is_drawn_where_and_when_the_plan_flies_it():
    view, plan = _chart()
    assert [r.key for r in plan.tails] == ["A6-EIA", "A6-EIB"]
    assert _bars(plan, "A6-EIA", "plan") == {
        RETIMED: ("delayed", "17:15"),
        SWAPPED: ("swapped_out", "18:00"),
        CANCELLED: ("cancelled", "15:00"),
    }
    assert _bars(plan, "A6-EIB", "plan") == {SWAPPED: ("swapped_in", "18:20")}
    assert _bars(plan, "A6-EIA", "original") == {
        RETIMED: ("unchanged", "14:00"),
        SWAPPED: ("unchanged", "18:00"),
        CANCELLED: ("unchanged", "15:00"),
    }
    [band] = view.bands
    assert (band.kind, band.airport, band.start, band.end) == ("closure", "AUH", WINDOW.start, WINDOW.end)
    assert view.start < WINDOW.start and view.end > max(b.end for r in plan.tails for b in r.bars)


def test_the_reserve_is_drawn_on_the_flight_and_the_captain_off_it():
    _, plan = _chart()
    rows = {r.key: [(b.change, b.flight_id) for b in r.bars] for r in plan.crew}
    assert rows == {"C0301": [("replaced", RETIMED)], "S01": [("reserve_call_out", RETIMED)]}


def test_the_figures_name_the_longest_delay_and_the_plan_totals():
    _, plan = _chart()
    assert plan.figures.delay_minutes == 195 and plan.figures.cancellations == 1
    assert plan.figures.total_cost_usd == 84_000
