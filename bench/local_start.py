"""How long local AWS takes to come up, and a standalone agent command without it: figures beside issue 21's goals.

    python -m bench.local_start [--agents crew_compliance guest_experience]

In a fresh SKYMARSHAL_HOME (a temporary directory, so nothing of yours is touched and nothing is cached):
`skymarshal local start` the very first time (generate, seed, synthesize the CDK app, cache the seeded
airline), `local stop`, `local start` again from disk; then, with nothing running, `skymarshal agent NAME
PROMPT` for each agent (a temporary in-process account holding a slice of the airline). Wall seconds and the
server's resident memory at ready, as the server itself reports them (`local status`). Figures, not assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

START_GOAL_S, START_GOAL_MB, AGENT_GOAL_S = 30.0, 1536, 10.0
PROMPT = "Flight EY123 on January 20th had a mechanical failure"


def _skymarshal(home: Path, *args: str, timeout: float = 900) -> tuple[float, subprocess.CompletedProcess]:
    env = {**os.environ, "SKYMARSHAL_HOME": str(home), "SKYMARSHAL_LLM_PROVIDER": "offline"}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "skymarshal.cli", *args], capture_output=True, text=True, env=env, timeout=timeout
    )
    return time.monotonic() - started, done


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _row(figure: str, value: str, goal: str, met: bool) -> str:
    return f"  {figure:44s} {value:>24s}   {goal:14s} {'met' if met else 'not met'}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--agents", nargs="+", default=["crew_compliance", "guest_experience"])
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="skymarshal-bench-") as tmp:
        home, port = Path(tmp), str(free_port())
        for label in ("first start (generate, seed, synthesize)", "start from disk"):
            wall, done = _skymarshal(home, "local", "start", "--port", port)
            if done.returncode != 0:
                print(f"bench.local_start: `local start` failed: {(done.stderr or done.stdout).strip()[-300:]}")
                return 1
            status = json.loads(_skymarshal(home, "local", "status")[1].stdout)
            mb = status["rss_mb_at_ready"]
            rows.append(
                _row(
                    f"`local start`, {label}",
                    f"{wall:.1f} s, {mb:,} MB",
                    f"≤ {START_GOAL_S:g} s, ≤ {START_GOAL_MB / 1024:g} GB",
                    wall <= START_GOAL_S and mb <= START_GOAL_MB,
                )
            )
            _skymarshal(home, "local", "stop")
        for agent in args.agents:
            wall, done = _skymarshal(home, "agent", agent, PROMPT, "--json")
            answer = "ok" if done.returncode == 0 else f"exit {done.returncode}"
            rows.append(
                _row(
                    f"standalone `agent {agent}`",
                    f"{wall:.1f} s ({answer})",
                    f"≤ {AGENT_GOAL_S:g} s",
                    wall <= AGENT_GOAL_S,
                )
            )
    from .calibration import describe

    print(f"local AWS and standalone commands (a fresh SKYMARSHAL_HOME; {os.cpu_count()} cores; {describe()}):")
    print(f"  {'figure':44s} {'measured':>24s}   {'goal':14s}")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
