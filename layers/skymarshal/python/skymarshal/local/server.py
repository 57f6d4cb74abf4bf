"""The background local account: a moto server on 127.0.0.1 that keeps its state on disk.

Run by `skymarshal local start` as a detached process. On start it recovers the account from
$SKYMARSHAL_HOME/local/state (durable.py: snapshot + journal + key services + runs) or, the first time,
loads the seeded airline (cached per seed) or generates and seeds it; installs the state machine; then
records every change while it serves. SIGTERM: stop serving, save the runs, checkpoint, exit.
The state file (control.py) says when it is ready, how long the start took, its memory, what it recovered.
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import memory_guard
from .control import LocalState, home, rss_mb, state_file
from .emulator import MOTO_CONFIG, LocalAccount, use_fake_credentials
from .schedule_start import Schedule, load_schedule


def _start_http(port: int, on_change):
    """moto's WSGI application behind the journal's recorder, served as ThreadedMotoServer serves it."""
    from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
    from werkzeug.serving import make_server

    from .fault_hooks import from_env, middleware
    from .journal import Recorder

    app = DomainDispatcherApplication(create_backend_app)
    # Which backend serves a host never changes; moto works it out on every request, under the lock every request
    # takes, by listing its package directory and matching hundreds of URL patterns.
    app.get_backend_for_host = functools.lru_cache(maxsize=256)(app.get_backend_for_host)  # type: ignore[method-assign]
    recorder = Recorder(app, on_change)
    faults = from_env(in_process=False)  # `local start --faults`: in front of the journal, a refused write is not kept
    served = middleware(recorder, faults) if faults else recorder
    http = make_server("127.0.0.1", port, served, threaded=True, request_handler=MotoRequestHandler)
    threading.Thread(target=http.serve_forever, name="moto-http", daemon=True).start()
    return http, recorder


def serve(port: int, seed: int, load_factor: float, schedule: Schedule | None = None) -> None:
    from moto.core.config import default_user_config

    from . import pool_key
    from .durable import DurableState
    from .moto_speedups import install
    from .template import workflow_template

    started = time.monotonic()
    memory_guard.limit_arenas()  # before the HTTP server's threads exist
    use_fake_credentials()
    install()
    pool_key.install()
    # What mock_aws(config=MOTO_CONFIG) does in process: moto's server runs in this process too, and without
    # it Step Functions returns a canned history instead of running the definition, and Lambda wants Docker.
    default_user_config.update(MOTO_CONFIG)
    os.environ["MOTO_PORT"] = str(port)  # where moto's state machine interpreter sends its Lambda invocations
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request in local.log
    durable = DurableState(home() / "local")
    runs_store = None

    def on_change(service: str, action: str) -> None:
        if service in ("kms", "cognito-idp") and not action.startswith(("Describe", "List", "Get", "Sign", "Verify")):
            durable.save_keys(service)
        elif service == "states" and runs_store is not None and not action.startswith(("Describe", "List", "Get")):
            runs_store.save()

    http, recorder = _start_http(port, on_change)
    endpoint = f"http://127.0.0.1:{port}"
    state = LocalState(pid=os.getpid(), endpoint=endpoint, status="seeding", seed=seed, started_at=time.time())
    state.write()
    account = LocalAccount(endpoint_url=endpoint)
    # The CDK synthesis (a first start, or the app changed) is another process: it runs on the second core
    # while this one recovers or generates and seeds the airline.
    template = ThreadPoolExecutor(max_workers=1, thread_name_prefix="synth").submit(
        workflow_template, echo=lambda m: print(m, flush=True)
    )
    if durable.exists():
        print(f"moto listening on {endpoint}; recovering the account from {durable.state}", flush=True)
        recovery = durable.recover(recorder.app)
        for index in account.add_missing_indexes():  # a state saved before the schema gained an index
            print(f"added the index {index}", flush=True)
    else:
        recovery = None
        _seed(durable, account, seed, load_factor)
        if schedule is not None:  # every table seeded; the flights from the airline's SSIM file (schedule_start.py)
            print(f"flights from {schedule.path}: {load_schedule(account, schedule, durable)}", flush=True)
    counts = {t: n for t, n in (account.seed_info() or {}).get("counts", {}).items()}
    # The workflow runs here: moto executes the state machine in this process, so the handlers must too.
    from .runs import RunStore, settler, sweep_messages
    from .workflow import install as install_workflow

    arn = install_workflow(account, template.result())
    runs_store = RunStore(durable.state / "runs", arn)
    if recovery is not None:
        recovery.runs = runs_store.restore(settle=settler(account))  # an executed run is recorded as executed
        swept = sweep_messages(account)  # messages stored and not published before the stop: published now
        if swept["pending"]:
            print(f"published {swept['published']} pending message event(s) of {swept['pending']} run(s)", flush=True)
        if recovery.replayed or recovery.refused:
            durable.checkpoint()  # the next crash replays from here, not from the start again
    durable.start_journal(recorder)
    for service in ("kms", "cognito-idp"):
        durable.save_keys(service)  # the audit key install_workflow may have just made
    runs_store.watch()
    memory_guard.release_memory()  # what seeding or recovery freed goes back before the first run
    memory_guard.freeze_seeded()
    state.status, state.counts = "ready", counts
    state.start_seconds, state.rss_mb = round(time.monotonic() - started, 1), rss_mb(os.getpid())
    state.start_cpu_seconds = round(time.process_time(), 1)
    state.recovered = recovery.summary() if recovery else ""
    guard = memory_guard.memory()
    state.memory_limit_mb, state.memory_reserve_mb = guard.limit_mb, guard.reserve_mb
    state.write()
    print(f"state machine {arn}", flush=True)
    print(
        f"ready in {state.start_seconds} s ({state.start_cpu_seconds} s CPU), {state.rss_mb} MB; {state.recovered}",
        flush=True,
    )
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    stop.wait()
    http.shutdown()
    runs_store.close()
    durable.checkpoint()  # a clean stop leaves an empty journal: the next start loads, replays nothing
    state_file().unlink(missing_ok=True)
    print("stopped; state saved", flush=True)


def _seed(durable, account: LocalAccount, seed: int, load_factor: float) -> None:
    """The first start: the cached airline for this seed, or generate, seed in place and cache it."""
    seed_path = durable.seed_file(seed, load_factor)
    if seed_path.exists():
        print(f"loading the seeded airline from {seed_path}", flush=True)
        durable.load_seed(seed_path)
    else:
        from ..data.generator import GeneratorConfig, generate
        from .seeding import seed_in_place

        print(f"generating the airline (seed {seed}, load factor {load_factor})", flush=True)
        airline = generate(GeneratorConfig(seed=seed, load_factor=load_factor))
        seed_in_place(account, airline, progress=lambda table, n: print(f"  {table}: {n} rows", flush=True))
        del airline  # 0.9 GB of generated rows, freed here (no cycles among them): the account holds them now
        durable.save_seed(seed, load_factor)
    durable.adopt_seed(seed_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skymarshal.local.server")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--load-factor", type=float, default=0.78)
    parser.add_argument("--schedule", type=Path, help="an SSIM file: the first start's flights")
    parser.add_argument("--tails", type=Path, help="the schedule's tail file (flight_id,registration)")
    args = parser.parse_args(argv)
    try:
        schedule = Schedule.of(args.schedule, args.tails) if args.schedule else None
        serve(args.port, args.seed, args.load_factor, schedule)
    except Exception as exc:  # the starter reads the state file: say what failed there
        logging.getLogger("skymarshal.local").exception("local AWS failed")
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
