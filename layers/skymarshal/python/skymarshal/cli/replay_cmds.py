"""`skymarshal replay STREAM`: a day's disruption stream decided one event after another on one account, then
the day's scorecard from the tables (``replay_run`` drives it; ``day`` scores it).

The stream is checked whole first — a malformed line, an unknown flight, a window outside the data — and
refused on one line naming the event before anything is decided. Accounts: the running local AWS (default),
another local endpoint (``--endpoint URL``), or a deployed stack (``--aws``: SKYMARSHAL_STATE_MACHINE_ARN and
the stack's table names from the environment, as the API's Lambda has them). ``--progress PATH`` (default
beside the stream) makes an interrupted replay resume without deciding any event twice.
"""

from __future__ import annotations

import contextlib
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

from .replay_run import POLICIES, Bus

BUS_ENV = "SKYMARSHAL_EVENT_BUS"


def register(commands) -> None:
    cmd = commands.add_parser("replay", help="replay a day's disruption stream through the workflow and score the day")
    cmd.add_argument("stream", type=Path, help="a stream file (JSON Lines: a header, then one event per line)")
    cmd.add_argument("--policy", choices=POLICIES, default="rank1", help="the duty manager's policy (default rank1)")
    where = cmd.add_mutually_exclusive_group()
    where.add_argument(
        "--endpoint", metavar="URL", help="a local AWS endpoint (default: the running `skymarshal local`)"
    )
    where.add_argument("--aws", action="store_true", help="the deployed stack named by the environment")
    cmd.add_argument("--progress", type=Path, help="the progress file (default: STREAM.<policy>.progress.jsonl)")
    cmd.add_argument("--json", action="store_true", help="print the scorecard as one JSON object")
    cmd.set_defaults(run=_run)


@contextlib.contextmanager
def _target(args, echo):
    """(workflow client, data handle, bus) of the account the replay runs on: a deployed stack's reports go
    through its bus (as any producer's), a local account's straight to its state machine."""
    if args.aws:
        import os

        import boto3

        from ..data.access import DataHandle
        from ..data.schema import Naming
        from ..workflow.runs.client import WorkflowClient
        from .common import CliError

        if not os.environ.get("SKYMARSHAL_STATE_MACHINE_ARN") or not os.environ.get(BUS_ENV):
            raise CliError(
                f"--aws: set SKYMARSHAL_STATE_MACHINE_ARN, {BUS_ENV} (the stack's EventBusName output) and the "
                "stack's table names to the deployed stack's"
            )
        bus = Bus(events=boto3.client("events"), name=os.environ[BUS_ENV])
        yield WorkflowClient.from_env(), DataHandle(naming=Naming.from_env(), resource=boto3.resource("dynamodb")), bus
        return
    from ..local import control
    from ..local.emulator import LocalAccount, use_fake_credentials
    from ..local.workflow import local_client

    if args.endpoint:
        use_fake_credentials()
        account = LocalAccount(endpoint_url=args.endpoint)
        yield local_client(account, echo=echo), account.handle(), None
        return
    with control.account(echo=echo) as account:
        yield local_client(account, echo=echo), account.handle(), None


def read_checked(path: Path):
    """The stream read whole, or CliError on one line naming the line or the event (before any account)."""
    from ..day.stream import StreamRefused, read_stream
    from .common import CliError

    try:
        return read_stream(path)
    except StreamRefused as exc:
        raise CliError(f"stream refused: {exc}") from None


def check_data(stream, handle) -> None:
    """CliError on one line naming the event when the stream names a flight, a station or a day the account's
    data does not hold — before anything is decided."""
    from ..data import queries as q
    from ..day.stream import StreamRefused, check_against_data, data_days_of
    from .common import CliError

    stations = {e.station for e in stream.events if e.station}
    known = {iata for iata in stations if q.airport_profile(handle, iata) is not None}
    try:
        check_against_data(stream, lambda fid: q.get_flight(handle, fid), data_days_of(stream.header), known)
    except StreamRefused as exc:
        raise CliError(f"stream refused: {exc}") from None


def _run(args) -> int:
    from ..day.published import publish, replay_key, replayed_day
    from ..day.repairs import close_repaired
    from ..day.state import from_handle, tails_of
    from ..day.trace import trace_table
    from .replay_run import ReplayProgress, execution_name, replay, tails_before
    from .replay_scorecard import account_scorecard, scorecard_table
    from .replay_trace import ReplayTracer

    def echo(message: str) -> None:
        print(message, file=sys.stderr)

    progress = ReplayProgress(
        args.progress or args.stream.with_name(f"{args.stream.name}.{args.policy}.progress.jsonl")
    )
    stream = read_checked(args.stream)
    with _target(args, echo) as (client, handle, bus):
        check_data(stream, handle)
        echo(
            f"replaying {len(stream.events)} event(s) of {stream.header.stream_id} under {args.policy}; progress in {progress.path}"
        )
        # each event's cause and decision scored on the tables before and after it (where the day is decided)
        tracer = ReplayTracer(
            stream, lambda: from_handle(handle, stream.header.days, tails_before(progress)), args.policy
        )
        tracer.start(len(progress.load()[1]))
        runs = {e.event_id: execution_name(stream, e) for e in stream.events}
        outcomes = replay(
            stream,
            client,
            progress,
            lambda: tails_of(handle, stream.header.days),
            policy=args.policy,
            echo=echo,
            after_event=tracer.after,
            bus=bus,
            # the emulated account is the replay's whole world: maintenance signs repaired tails off in it
            repaired=None if bus is not None else lambda now: close_repaired(handle, stream, now, runs),
        )
        tails, _ = progress.load()
        card = account_scorecard(handle, stream, outcomes, tails or {}, args.policy)
        publish(client.store, replayed_day(stream, [card], datetime.now(UTC), tracer.steps))
        echo(f"kept for the console (its Day replay panel): {replay_key(stream.header.stream_id)} in the run artifacts")
    if args.json:
        from .machine_output import document_out

        document = card.model_dump(mode="json") | {"events": [s.model_dump(mode="json") for s in tracer.steps]}
        print(json.dumps(document), file=document_out())
    else:
        print(scorecard_table([card], title=f"{stream.header.stream_id}: the day after {len(outcomes)} decision(s)"))
        print("\n" + trace_table(stream.events, tracer.steps, title="where the day was decided (cost to the day):"))
    return 0
