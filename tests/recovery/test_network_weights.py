"""The network planner's objectives re-weight the ROADEF 2009 cost coefficients and nothing else."""

from __future__ import annotations

from skymarshal.network.objectives import DEFAULT_OBJECTIVES, weighted

from .tiny import tiny_instance


def test_objectives_reweight_the_cost_only(tmp_path):
    base = tiny_instance(tmp_path)
    delay = weighted(base, DEFAULT_OBJECTIVES["min_delay"])
    assert delay.flights == base.flights and delay.rotations == base.rotations
    assert all(delay.config.delay_per_minute[k] == 4 * v for k, v in base.config.delay_per_minute.items())
    premium = weighted(base, DEFAULT_OBJECTIVES["protect_connections"])
    key = next(iter(base.config.outbound_cancellation))
    factor = 3 if key[0] in "FB" else 1
    assert premium.config.outbound_cancellation[key] == factor * base.config.outbound_cancellation[key]
