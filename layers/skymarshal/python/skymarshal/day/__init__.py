"""A day replayed: a stream of disruptions for the synthetic airline (``stream``, drawn by ``draw``), the day
as it then happens on the tables (``realize``), and the day's scorecard computed from it (``scorecard``).

Sits between the domain (agents, arbitration, workflow) and the foundations: it reads rows and applies the
rules, and knows nothing of agents or the workflow, so the replay driver (``cli/replay_cmds.py``) and the bench
(``bench/day``) score every policy — SkyMarshal's and the baselines' — with one function.
"""
