"""The background local account: a moto server on 127.0.0.1, seeded with the synthetic airline.

Run by `skymarshal local start` as a detached process; writes its state file once the account is ready
and serves until `skymarshal local stop` (SIGTERM). Several local commands share it, so the effects of
one (an aircraft swapped) are seen by the next.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
import time

from .control import LocalState, state_file
from .emulator import MOTO_CONFIG, LocalAccount, use_fake_credentials


def serve(port: int, seed: int, load_factor: float) -> None:
    from moto.core.config import default_user_config
    from moto.server import ThreadedMotoServer

    from ..data.generator import GeneratorConfig, generate
    from .moto_speedups import install

    use_fake_credentials()
    install()
    # What mock_aws(config=MOTO_CONFIG) does in process: moto's server runs in this process too, and without
    # it Step Functions returns a canned history instead of running the definition, and Lambda wants Docker.
    default_user_config.update(MOTO_CONFIG)
    os.environ["MOTO_PORT"] = str(port)  # where moto's state machine interpreter sends its Lambda invocations
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request in local.log
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    endpoint = f"http://127.0.0.1:{port}"
    state = LocalState(pid=os.getpid(), endpoint=endpoint, status="seeding", seed=seed, started_at=time.time())
    state.write()
    print(f"moto listening on {endpoint}; generating the airline (seed {seed})", flush=True)
    airline = generate(GeneratorConfig(seed=seed, load_factor=load_factor))
    account = LocalAccount(endpoint_url=endpoint)
    account.create(airline, progress=lambda table, n: print(f"  {table}: {n} rows", flush=True))
    # The workflow runs here: moto executes the state machine in this process, so the handlers must too.
    from .template import workflow_template
    from .workflow import install as install_workflow

    arn = install_workflow(account, workflow_template(echo=lambda m: print(m, flush=True)))
    print(f"state machine {arn}", flush=True)
    state.status, state.counts = "ready", airline.counts()
    state.write()
    print("ready", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    server.stop()
    state_file().unlink(missing_ok=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skymarshal.local.server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--load-factor", type=float, default=0.78)
    args = parser.parse_args(argv)
    try:
        serve(args.port, args.seed, args.load_factor)
    except Exception as exc:  # the starter reads the state file: say what failed there
        LocalState(
            pid=os.getpid(),
            endpoint="",
            status="failed",
            seed=args.seed,
            started_at=time.time(),
            error=f"{type(exc).__name__}: {exc}",
        ).write()
        print(json.dumps({"error": str(exc)}), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
