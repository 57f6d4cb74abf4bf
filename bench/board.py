"""GET /operations?day=, the operation board (issue 50): how long the whole day's board takes to assemble at
production volume (goal: within 1 s locally) — every tail's row, the runs on it and the header's scorecard, as the
API Lambda builds it. Figures, not assertions.

    python -m bench.board [--load-factor 0.78] [--repeat 7]         # an in-process emulated account
    python -m bench.board --endpoint http://127.0.0.1:4566          # the running local AWS (`skymarshal local start`)

The first call is reported apart (imports, moto's first reads); the goal is judged on the median of the others.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from contextlib import contextmanager
from datetime import date

from skymarshal.api.operations import board_window, operation_board

GOAL_SECONDS = 1.0
DAY = date(2027, 1, 20)  # the generated airline's first demo day


@contextmanager
def account_at(endpoint: str | None, load_factor: float):
    from skymarshal.local.account import LocalAccount

    if endpoint:
        from skymarshal.local.emulator import use_fake_credentials

        use_fake_credentials()
        yield LocalAccount(endpoint_url=endpoint)
        return
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.local.emulator import in_process_account

    with in_process_account(generate(GeneratorConfig(load_factor=load_factor))) as account:
        yield account


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--load-factor", type=float, default=0.78, help="in-process only: passenger volume")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--endpoint", help="a running local AWS (its data is what it was started with)")
    parser.add_argument("--day", type=date.fromisoformat, default=DAY)
    args = parser.parse_args(argv)
    from skymarshal.local import workflow as local_workflow

    with account_at(args.endpoint, args.load_factor) as account:
        client = local_workflow.local_client(account, echo=lambda m: None)
        requests: Counter = Counter()
        events = client.tables.resource.meta.client.meta.events
        events.register("before-call.dynamodb", lambda model, **_: requests.update([model.name]))
        window = board_window(args.day, None, None)
        times, board = [], None
        for _ in range(args.repeat + 1):
            requests.clear()
            started = time.perf_counter()
            board = operation_board(client, args.day, *window)
            times.append(time.perf_counter() - started)
    assert board is not None
    first, rest = times[0], times[1:]
    median = statistics.median(rest)
    where = args.endpoint or f"in-process account, load factor {args.load_factor:g}"
    print(
        f"operation board {args.day} ({where}): {len(board.rows)} tails, "
        f"{sum(len(r.flights) for r in board.rows)} flights drawn, header over {board.header.flights} flights, "
        f"{len(board.disruptions)} open runs; DynamoDB {dict(requests)}"
    )
    print(
        f"  first call {first:.2f} s; then median {median:.2f} s over {len(rest)} (min {min(rest):.2f}, "
        f"max {max(rest):.2f}); goal <= {GOAL_SECONDS:.0f} s: {'met' if median <= GOAL_SECONDS else 'MISSED'}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
