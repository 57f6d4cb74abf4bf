"""Network recovery optimizer on the ROADEF/EURO 2009 instances: figures, not assertions.

Runs `solve` on each instance with a fixed time limit (one process, one core) and prints: instance, our
cost, the 2009 qualification winner's value (Bisaillon et al., set A only), gap %, seconds, our checker's
verdict, and with --official-checker (or ROADEF_COST_CHECKER) the official cost checker's total for the
same files and whether it agrees with ours to the cent. The official binary is not part of this
repository; see README "Network recovery optimizer".
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from skymarshal.recovery.parser import INSTANCE_FILES, InstanceError, read_instance
from skymarshal.recovery.solver import NoFeasibleSolution, solve
from skymarshal.recovery.writer import write_solution

# Qualification results of the 2009 winner (Bisaillon, Cordeau, Laporte, Pasin), from the challenge README.
WINNER_QUALIFICATION = {
    "A01": 29891.75, "A02": 116431.70, "A03": 202358.10, "A04": 139747.10, "A05": 3717376.35,
    "A06": 44305.05, "A07": 202247.75, "A08": 659572.00, "A09": 215482.35, "A10": 7210166.90,
}
DEFAULT_INSTANCES = [f"A{i:02d}" for i in range(1, 11)] + [f"B{i:02d}" for i in range(1, 11)]


def official_total(checker: Path, instance_dir: Path, solution_dir: Path) -> float | None:
    """Run the official cost checker on a scratch copy of the instance plus our solution files."""
    with tempfile.TemporaryDirectory() as scratch:
        for name in INSTANCE_FILES + ("sol_rotations.csv", "sol_itineraries.csv"):
            source = (solution_dir if name.startswith("sol_") else instance_dir) / name
            shutil.copyfile(source, Path(scratch) / name)
        try:
            report = subprocess.run([str(checker), "."], cwd=scratch, capture_output=True, text=True, timeout=120).stdout
        except (OSError, subprocess.TimeoutExpired) as exc:
            print(f"official checker failed on {instance_dir.name}: {exc}", file=sys.stderr)
            return None
    match = re.search(r"Total Cost:\s*(-?[\d.]+)", report)
    return float(match.group(1)) if match else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("instances", nargs="*", default=DEFAULT_INSTANCES)
    parser.add_argument("--root", type=Path, default=Path(os.environ.get("ROADEF_DIR", "/work/shared/roadef2009")))
    parser.add_argument("--time-limit", type=float, default=60.0, help="seconds per instance (default 60)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path(".build/recovery"), help="solutions are written here")
    parser.add_argument("--official-checker", type=Path, default=os.environ.get("ROADEF_COST_CHECKER") or None)
    parser.add_argument("--json", type=Path, help="also write the rows as JSON to this file")
    args = parser.parse_args(argv)
    if args.official_checker and not os.access(args.official_checker, os.X_OK):
        parser.error(f"--official-checker {args.official_checker} is not an executable file")

    header = f"{'inst':<5} {'our cost':>15} {'2009 winner':>15} {'gap %':>8} {'sec':>7} {'checker':>10}"
    if args.official_checker:
        header += f" {'official':>15} {'agree':>6}"
    print(header, flush=True)
    rows, wins, solved = [], 0, 0
    for name in args.instances:
        row = _run_one(args, name)
        rows.append(row)
        if row.get("cost") is None:
            print(f"{name:<5} {'-':>15} {'':>15} {'':>8} {'':>7} {row['verdict']:>10}", flush=True)
            continue
        solved += row["verdict"] == "feasible"
        winner = WINNER_QUALIFICATION.get(name)
        gap = f"{100 * (row['cost'] - winner) / winner:+.1f}" if winner else "-"
        wins += bool(winner and row["cost"] < winner)
        line = (f"{name:<5} {row['cost']:>15,.2f} {f'{winner:,.2f}' if winner else '-':>15} {gap:>8} "
                f"{row['seconds']:>7.1f} {row['verdict']:>10}")
        if args.official_checker:
            official = row.get("official")
            line += f" {f'{official:,.2f}' if official is not None else '-':>15} {'yes' if row.get('agree') else 'NO':>6}"
        print(line, flush=True)
    known = sum(1 for r in rows if r["instance"] in WINNER_QUALIFICATION)
    print(f"feasible {solved}/{len(rows)}; below the 2009 winner's qualification value on {wins}/{known} set-A instances")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=2))
    return 0 if solved == len(rows) else 1


def _run_one(args, name: str) -> dict:
    folder = args.root / name
    try:
        instance = read_instance(folder)
        solution, result = solve(instance, args.time_limit, seed=args.seed)
    except (InstanceError, NoFeasibleSolution) as exc:
        return {"instance": name, "cost": None, "verdict": "no plan", "error": str(exc)}
    out = args.out / name
    write_solution(instance, solution, out)
    row = {"instance": name, "cost": result.cost.total, "seconds": result.seconds, "iterations": result.iterations,
           "verdict": "feasible" if result.feasible else f"{len(result.violations)} viol.",
           "components": result.cost.model_dump()}
    if args.official_checker:
        official = official_total(args.official_checker, folder, out)
        row.update(official=official, agree=official is not None and round(official, 2) == round(result.cost.total, 2))
    return row


if __name__ == "__main__":
    sys.exit(main())
