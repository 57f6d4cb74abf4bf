"""bench.day: a day replayed — streams drawn from the airline's history, SkyMarshal and the baselines on them,
the scorecards and their plots (`make bench-day`)."""
