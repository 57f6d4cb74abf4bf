"""What the recovery optimizer minimises, as the cost terms of the 2009 challenge (`model.CostConfig`): the
challenge's own cost with its set-A coefficients (`roadef_config`: the benchmark, the network planner), or the day
scorecard's costs in the same terms (`day_config`: the hindsight bound of `make bench-day`)."""

from __future__ import annotations

from typing import Literal

from ..rules.finance import DEFAULT_FINANCE, OVERNIGHT_HOURS, PASSENGER_MINUTE_USD, STRANDED_MINUTES
from .model import CABINS, HAULS, CostConfig

Objective = Literal["roadef", "day"]  # what the optimizer minimises: the 2009 cost, or the day scorecard's
_A_SET = {  # ROADEF 2009 set-A coefficients (config.csv of A01): cabin + haul
    "delay": {"FD": 1.25, "FC": 1.25, "FI": 1.25, "BD": 0.8, "BC": 0.85, "BI": 0.9, "ED": 0.05, "EC": 0.15, "EI": 0.25},
    "outbound": {
        "FD": 2500.0,
        "FC": 2750.0,
        "FI": 3000.0,
        "BD": 1500.0,
        "BC": 1750.0,
        "BI": 2000.0,
        "ED": 250.0,
        "EC": 600.0,
        "EI": 1000.0,
    },
    "inbound": {
        "FD": 7500.0,
        "FC": 8250.0,
        "FI": 9000.0,
        "BD": 4500.0,
        "BC": 5250.0,
        "BI": 6000.0,
        "ED": 750.0,
        "EC": 1500.0,
        "EI": 3000.0,
    },
    "downgrade": {
        "FBD": 150.0,
        "FBC": 400.0,
        "FBI": 750.0,
        "FED": 200.0,
        "FEC": 500.0,
        "FEI": 1500.0,
        "BED": 150.0,
        "BEC": 400.0,
        "BEI": 750.0,
    },
}


def roadef_config(start: int, end: int) -> CostConfig:
    """The 2009 challenge's cost with its set-A coefficients: the benchmark's objective."""
    return CostConfig(
        window_start=start,
        window_end=end,
        delay_per_minute=_A_SET["delay"],
        outbound_cancellation=_A_SET["outbound"],
        inbound_cancellation=_A_SET["inbound"],
        downgrade=_A_SET["downgrade"],
        penalty_family=20000.0,
        penalty_model=5000.0,
        penalty_config=1000.0,
        alpha=1.0,
        beta=1.0,
        gamma=1.0,
    )


def day_config(start: int, end: int) -> CostConfig:
    """The day scorecard's objective in the same cost terms: each passenger-minute late at the destination at one
    price whatever the cabin (the scorecard counts minutes, not fares), a passenger the plan cannot carry home within
    the window as the next day's flight plus a night (rules.finance: STRANDED_MINUTES, OVERNIGHT_HOURS, priced at
    PASSENGER_MINUTE_USD) and the re-accommodation the finance rules charge, each flight's minute of delay at the
    finance rules' cost (rules.finance.delay_cost), no credit for a cancelled flight's operating cost (the
    scorecard saves nothing by cancelling), a tail swap at the scorecard's price per pair of tails (a cheaper type
    earns nothing: rules.finance.tail_swap_cost) and no new flight (the day writes none). The legal compensation
    terms are the 2009 cost's."""
    stranded = (STRANDED_MINUTES + OVERNIGHT_HOURS * 60) * PASSENGER_MINUTE_USD
    stranded += DEFAULT_FINANCE.reaccommodation_per_passenger_usd
    every = [cabin + haul for cabin in CABINS for haul in HAULS]
    return roadef_config(start, end).model_copy(
        update={
            "delay_per_minute": dict.fromkeys(every, PASSENGER_MINUTE_USD),
            "outbound_cancellation": dict.fromkeys(every, stranded),
            "inbound_cancellation": dict.fromkeys(every, stranded),
            "credit_cancelled_flights": False,
            "flight_delay_per_minute": DEFAULT_FINANCE.delay_cost_per_minute_usd,
            "swap_per_tail_pair": DEFAULT_FINANCE.tail_swap_fixed_usd,
            "new_flights": False,
        }
    )
