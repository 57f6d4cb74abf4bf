"""Executing a network plan leaves local AWS's memory bounded (issue 32): the AUH fog closure, approved, at 0.1.

Before the fix (moto kept every model object it ever made, moto_instances.py, and each transaction copied the
tables it named, moto_transact.py) the server grew from 0.9 GB to 5 GB within 33 s of the approval at load factor
0.1 (killed there by a cap), and to 24 GB at 0.78. The server is sampled five times a second and killed as soon as
it passes the bound, so a regression fails here quickly instead of taking the machine's memory.

The bound is this plan's end to end; each leak is also held by its own test (tests/local/test_moto_instances.py
follows one object with a weak reference): at this load, with the table copies gone, moto's list of instances
alone stays under the bound (146 MB measured with it put back).
"""

from __future__ import annotations

import json
import os
import signal
import threading

import pytest

from skymarshal.cli import main
from skymarshal.local import control

pytestmark = pytest.mark.system

FOG = "Fog: no movements at Abu Dhabi between 03:00 and 06:00 UTC on 21 January 2027"
LOAD_FACTOR = 0.1
GROWTH_BOUND_MB = 500  # measured 2026-11-27: 132 MB over ready at its peak; the code before both fixes: over 4,000 MB


class Watch(threading.Thread):
    """The server's peak resident memory; SIGKILL once it passes `kill_above_mb`."""

    def __init__(self, pid: int, kill_above_mb: int):
        super().__init__(daemon=True)
        self.pid, self.kill_above_mb, self.peak, self.killed = pid, kill_above_mb, 0, False
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.2):
            rss = control.rss_mb(self.pid)
            if rss is None:
                return
            self.peak = max(self.peak, rss)
            if rss > self.kill_above_mb:
                self.killed = True
                os.kill(self.pid, signal.SIGKILL)
                return


def test_the_auh_fog_closure_executes_within_a_memory_bound(local_home, capsys):
    state = control.start(port=local_home, load_factor=LOAD_FACTOR, echo=lambda m: None, timeout_s=900)
    ready = control.rss_mb(state.pid)
    assert ready is not None, (
        "the server's resident memory must be readable (Linux /proc) for this bound to mean anything"
    )
    watch = Watch(state.pid, ready + GROWTH_BOUND_MB)
    watch.start()
    try:
        code = main(["analyze", FOG, "--approve", "--as", "Memory Bound", "--json"])
    finally:
        watch.done.set()
        watch.join()
    captured = capsys.readouterr()
    assert not watch.killed, f"the server passed {ready} + {GROWTH_BOUND_MB} MB while the plan ran (killed)"
    assert code == 0, captured.err
    answer = json.loads(captured.out)
    assert answer["status"] == "executed", answer.get("message") or answer.get("outcome")
    assert watch.peak - ready <= GROWTH_BOUND_MB
    print(f"ready {ready} MB, peak {watch.peak} MB: grew {watch.peak - ready} MB")
