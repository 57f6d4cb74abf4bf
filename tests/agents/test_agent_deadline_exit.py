"""A stalled model costs the caller its deadline, not more: `run_agent` answers at the deadline and the
process exits then (the `skymarshal agent` CLI's complaint: it printed at the deadline and exited minutes
later, joining the stuck worker). Runs in a subprocess with a model that never answers; no AWS is reached."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SCRIPT = textwrap.dedent("""
    import time
    from fakes import ScriptedChatModel
    from skymarshal.agents.runner import run_agent
    from skymarshal.data.access import DataHandle

    class Stuck(ScriptedChatModel):
        def _generate(self, *args, **kwargs):
            time.sleep(3600)

    handle = DataHandle(resource=object())  # never read: the model stalls before any query
    response = run_agent("crew_compliance", "Flight EY123 on 20 January had a mechanical failure",
                         handle=handle, llm=Stuck(replies=[]), deadline_seconds=2)
    print(response.status, response.message)
""")


def test_a_stalled_model_returns_at_the_deadline_and_the_process_exits() -> None:
    # The model stalls for an hour: a process that joined its worker would run into the timeout (the test fails
    # with TimeoutExpired), however loaded the machine; no bound on wall-clock speed is asserted.
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("degraded no answer within the 2 s deadline")
