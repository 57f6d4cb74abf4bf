"""`skymarshal data check` on the default airline in emulated DynamoDB (goal: ≤ 2 s, issue 30): every tail's
rotation in sequence, airworthy when it flies, and AircraftAvailability where the flights leave each tail —
read through the GSIs (one Query per type for fleet and flights, one per tail for work orders)."""

from __future__ import annotations

import argparse
import statistics
import time

from skymarshal.data.generator import GeneratorConfig, generate
from skymarshal.data.integrity import check_operation
from skymarshal.local.emulator import in_process_account

GOAL_SECONDS = 2.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--load-factor", type=float, default=0.05, help="passengers do not enter the check")
    args = parser.parse_args(argv)
    with in_process_account(generate(GeneratorConfig(load_factor=args.load_factor))) as account:
        handle = account.handle()
        times, result = [], None
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = check_operation(handle)
            times.append(time.perf_counter() - start)
    assert result is not None
    median = statistics.median(times)
    print(f"data check, whole airline: {result.summary()}")
    print(
        f"  median {median:.2f} s over {args.repeat} (min {min(times):.2f}, max {max(times):.2f}); "
        f"goal <= {GOAL_SECONDS:.0f} s: {'met' if median <= GOAL_SECONDS else 'MISSED'}; "
        f"{sum(handle.calls.values())} requests, no Scan"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
