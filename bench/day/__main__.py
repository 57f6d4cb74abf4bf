"""`make bench-day`: an ordinary and a bad day of the synthetic airline replayed — SkyMarshal (rank 1 approved,
through the synthesized state machine on an in-process emulated account) beside the baselines on the same
stream — each day's scorecard printed as a table, saved as JSON and drawn as PNG plots.

Figures, not assertions. `--intensity meltdown` adds the hub closure, the crew-sickness wave and two AOGs;
`--skip-workflow` scores the baselines alone (seconds); `--policy scripted` replays the scripted duty manager.
Outputs (streams, progress files, scorecards, plots) go to --out (default .build/bench-day).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

from .plots import draw, draw_bank
from .reports import written

# the legal baselines first (issue 46: the comparison is against them), then the old ones kept for reference
BASELINES = ("delay", "greedy", "cancel-first", "delay-unconstrained", "greedy-unconstrained")


def _stream(airline, day: date, intensity: str, seed: int, load_factor: float):
    from skymarshal.data import schema as s
    from skymarshal.day.draw import draw_day
    from skymarshal.day.stream import AirlineRef, Stream, StreamHeader

    from ..reading.airline_view import view_of

    crew_on = defaultdict(list)
    for row in airline.tables[s.CREW_ROSTER]:
        if row.flight_id and row.kind == "FLIGHT":
            crew_on[row.flight_id].append(row)
    events = draw_day(
        airline.tables[s.DISRUPTION_HISTORY], airline.tables[s.FLIGHTS], day, intensity, seed, lambda f: crew_on[f]
    )
    view, rng = view_of(airline), random.Random(f"{seed}:reports")
    events = [written(e, view, crew_on, rng) for e in events]
    config = airline.config
    header = StreamHeader(
        stream_id=f"{intensity}-{day}-s{seed}",
        seed=seed,
        intensity=intensity,
        days=[day],
        airline=AirlineRef(
            seed=config.seed, start=config.start, days=config.days, load_factor=load_factor, scale=config.scale
        ),
    )
    return Stream(header=header, events=tuple(events))


class _BreakWatch:
    """`data.integrity.check_operation` on the account's tables after every decided event: each continuity break
    named with the event after which it first appears, so a break in the scorecard is traced to the decision
    that made it (the scorecard alone counts them at the day's end)."""

    def __init__(self, handle):
        from skymarshal.data.integrity import check_operation

        self._check = lambda: {b.message for b in check_operation(handle).continuity}
        self._seen = self._check()
        self.blamed: list[str] = [f"the seeding: {m}" for m in sorted(self._seen)]

    def after(self, outcome) -> None:
        now = self._check()
        self.blamed += [f"{outcome.event_id}: {m}" for m in sorted(now - self._seen)]
        self._seen |= now


def _skymarshal(airline, stream, out: Path, policy: str, before, trace: bool):
    """SkyMarshal's scorecard on the stream, each event's rank 1 and cost to the day (`trace`), and the
    before/after Gantt of the hub bank that lost most."""
    from skymarshal.cli.replay_run import ReplayProgress, execution_name, replay, tails_before
    from skymarshal.cli.replay_scorecard import account_scorecard
    from skymarshal.cli.replay_trace import ReplayTracer
    from skymarshal.data.generator.network import HUB
    from skymarshal.day.repairs import close_repaired
    from skymarshal.day.state import from_handle, tails_of
    from skymarshal.local import workflow as local_workflow
    from skymarshal.local.emulator import in_process_account
    from skymarshal.local.template import workflow_template

    progress = ReplayProgress(out / f"{stream.header.stream_id}.{policy}.progress.jsonl")
    progress.path.unlink(missing_ok=True)  # an in-process account starts fresh: so does its progress
    with in_process_account(airline) as account:
        local_workflow.install(account, workflow_template())
        client = local_workflow.local_client(account)
        handle = account.handle()
        days = stream.header.days
        tracer = ReplayTracer(stream, lambda: from_handle(handle, days, tails_before(progress)), policy)
        if trace:
            tracer.start(0)
        watch = _BreakWatch(handle)

        def event_decided(outcome) -> None:
            if trace:
                tracer.after(outcome)
            watch.after(outcome)

        runs = {e.event_id: execution_name(stream, e) for e in stream.events}
        outcomes = replay(
            stream,
            client,
            progress,
            lambda: tails_of(handle, days),
            policy=policy,
            after_event=event_decided,
            repaired=lambda now: close_repaired(handle, stream, now, runs),
        )
        for line in watch.blamed:
            print(f"  rotation break first seen after {line}", flush=True)
        tails, _ = progress.load()
        card = account_scorecard(handle, stream, outcomes, tails or {}, policy)
        after = from_handle(handle, stream.header.days, tails or {})
        bank = out / f"{stream.header.stream_id}.bank.png"
        draw_bank(before, after, stream.events, card.policy, HUB, stream.header.days[0], bank)
        return card, bank, tracer.steps


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--intensity", action="append", choices=("ordinary", "bad", "meltdown"))
    parser.add_argument("--day", type=date.fromisoformat, default=date(2027, 1, 20))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load-factor", type=float, default=0.1, help="passenger volume (0.78: production)")
    parser.add_argument("--policy", choices=("rank1", "scripted"), default="rank1")
    parser.add_argument("--skip-workflow", action="store_true", help="the baselines only")
    parser.add_argument(
        "--hindsight-seconds", type=float, default=60.0, help="the hindsight bound's optimizer time (0: skip it)"
    )
    parser.add_argument(
        "--no-trace", action="store_true", help="skip each event's cost to the day (two scorecards an event a policy)"
    )
    parser.add_argument("--out", type=Path, default=Path(".build/bench-day"))
    args = parser.parse_args(argv)
    os.environ["SKYMARSHAL_LLM_PROVIDER"] = "offline"
    os.environ.setdefault("POWERTOOLS_LOG_LEVEL", "WARNING")  # the handlers' INFO lines would bury the table

    from skymarshal.cli.replay_scorecard import scorecard_table
    from skymarshal.data import schema as s
    from skymarshal.data.generator import GeneratorConfig, generate
    from skymarshal.day.baselines import play_baseline
    from skymarshal.day.hindsight import HindsightUnsolved, run_hindsight
    from skymarshal.day.state import from_airline
    from skymarshal.day.trace import trace_table

    started = time.monotonic()
    # No demo situation planted: the workflow reads the tables, the baselines and the judge only the stream, so an
    # AOG the stream does not hold (EY123's, on 2027-01-20) would ground a tail for SkyMarshal alone.
    config = GeneratorConfig(
        load_factor=args.load_factor,
        passenger_days=(args.day - timedelta(days=1), args.day + timedelta(days=1)),
        demo_situations=False,
    )
    airline = generate(config)
    print(
        f"airline generated (load factor {args.load_factor}, passengers {args.day - timedelta(days=1)}..{args.day + timedelta(days=1)}) in {time.monotonic() - started:.0f} s",
        flush=True,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    for intensity in args.intensity or ["ordinary", "bad"]:
        stream = _stream(airline, args.day, intensity, args.seed, args.load_factor)
        path = args.out / f"{stream.header.stream_id}.jsonl"
        stream.write(path)
        print(f"\n{intensity} day {args.day}: {len(stream.events)} disruptions → {path}", flush=True)
        for e in stream.events:
            print(f"  {e.at:%H:%MZ} {e.event_id} {e.holds:7s} {e.cause:10s} {e.minutes:4d} min  {e.report[:100]}")
        state = from_airline(airline, [args.day])
        cards, steps = [], []
        for name in BASELINES:
            t = time.monotonic()
            played = play_baseline(name, state, stream.events, [args.day], trace=not args.no_trace)
            cards.append(played.card)
            steps += played.steps
            print(f"  baseline {name}: {time.monotonic() - t:.1f} s", flush=True)
        if args.hindsight_seconds > 0:
            t = time.monotonic()
            # the day's spares and the next day's: a late evening's rotation is handed over the next morning
            spares = [
                a for a in airline.tables[s.AIRCRAFT_AVAILABILITY] if a.date in (args.day, args.day + timedelta(1))
            ]
            try:
                cards.append(
                    run_hindsight(
                        state, stream.events, args.day, args.hindsight_seconds, spares, lambda g: print(f"  {g.line()}")
                    )
                )
                print(f"  hindsight bound: {time.monotonic() - t:.0f} s", flush=True)
            except HindsightUnsolved as e:
                print(f"  hindsight bound: not solved ({e})", flush=True)
        if not args.skip_workflow:
            t = time.monotonic()
            card, bank, own = _skymarshal(airline, stream, args.out, args.policy, state, not args.no_trace)
            cards.insert(0, card)
            steps = own + steps
            print(
                f"  skymarshal ({args.policy}): {time.monotonic() - t:.0f} s; hub bank before/after: {bank}", flush=True
            )
        title = f"{intensity} day {args.day} (seed {args.seed}, load factor {args.load_factor}, {len(stream.events)} disruptions)"
        print("\n" + scorecard_table(cards, title=title))
        (args.out / f"{stream.header.stream_id}.scorecards.json").write_text(
            json.dumps([c.model_dump(mode="json") for c in cards], indent=1)
        )
        if steps:
            print("\n" + trace_table(stream.events, steps, title="where the day was decided (cost to the day):"))
            (args.out / f"{stream.header.stream_id}.events.json").write_text(
                json.dumps([s.model_dump(mode="json") for s in steps], indent=1)
            )
        plot = draw(cards, title, args.out / f"{stream.header.stream_id}.png")
        print(f"plots: {plot}", flush=True)
    print(f"\nbench-day: {time.monotonic() - started:.0f} s in all")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
