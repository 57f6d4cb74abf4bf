"""The ROADEF 2009 official checkers as the oracle: the solution checker under Wine, the cost checker.

The binaries are not in this repository and never committed. `make roadef-checker` installs Wine and puts
them in `checker_dir()` (env ROADEF_CHECKER_DIR, default ~/.cache/skymarshal/roadef-checker), extracted
from the public repository Zhouxing-Su/FlightDisruptionRecovery (commit `SOURCE_COMMIT`, folder
`instance/`): from a local clone or mirror (env ROADEF_CHECKER_GIT, its git directory) or downloaded from
GitHub. Each file is checked against its SHA-256 before it is kept.

The solution checker runs as the challenge ran it: `solutionChecker-win32.exe .` in a folder holding the
instance's files and the two `sol_` files; it writes eleven files under `results/`, each empty when nothing
of its kind is violated. A solution is feasible for the oracle when all eleven are empty.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

from pydantic import BaseModel

from .parser import INSTANCE_FILES

SOURCE_REPOSITORY = "Zhouxing-Su/FlightDisruptionRecovery"
SOURCE_COMMIT = "ec463085634a04f22681e7c2517315f8d4f67226"
SOLUTION_CHECKER = "solutionChecker-win32.exe"
COST_CHECKER = "costChecker-static.i686-64"  # a static x86-64 Linux build: no Wine needed
BINARIES = {
    SOLUTION_CHECKER: "57b913046e3e6335b72fce4d9b730ce7a2070b9d7f89514b606462babd7b78eb",
    COST_CHECKER: "775462e87046e832f2069981028241434f688d241ad62e61e84741988b88dfac",
}
RESULT_FILES = 11  # what the solution checker writes under results/, one per family of checks
SOLUTION_FILES = ("sol_rotations.csv", "sol_itineraries.csv")
TIMEOUT_SECONDS = 300


class OfficialVerdict(BaseModel):
    """What the official solution checker wrote: per result file, its non-empty lines."""

    findings: dict[str, list[str]]

    @property
    def feasible(self) -> bool:
        return not any(self.findings.values())

    @property
    def count(self) -> int:
        return sum(len(lines) for lines in self.findings.values())

    def summary(self, examples: int = 2) -> str:
        if self.feasible:
            return "feasible"
        parts = [
            f"{name.removesuffix('.txt')} {len(lines)} (e.g. {'; '.join(lines[:examples])})"
            for name, lines in sorted(self.findings.items())
            if lines
        ]
        return f"{self.count} violations: " + ", ".join(parts)


class CheckerUnavailable(RuntimeError):
    """Wine or the binaries are missing: the message says which and how to get them."""


def checker_dir() -> Path:
    return Path(os.environ.get("ROADEF_CHECKER_DIR") or Path.home() / ".cache" / "skymarshal" / "roadef-checker")


def unavailable_reason(folder: Path | None = None) -> str | None:
    """Why the official solution checker cannot run here, or None when it can."""
    folder = folder or checker_dir()
    if shutil.which("wine") is None:
        return "Wine is not installed (make roadef-checker installs it from Debian's packages)"
    if not (folder / SOLUTION_CHECKER).is_file():
        return (
            f"the official solution checker is not in {folder} (make roadef-checker fetches it from "
            f"{SOURCE_REPOSITORY}; without GitHub access set ROADEF_CHECKER_GIT to a clone's git directory, or "
            f"copy instance/{SOLUTION_CHECKER} of commit {SOURCE_COMMIT[:7]} there; ROADEF_CHECKER_DIR moves it)"
        )
    return None


def _stage(instance_dir: Path, solution_dir: Path, scratch: Path) -> None:
    for name in INSTANCE_FILES:
        shutil.copyfile(instance_dir / name, scratch / name)
    for name in SOLUTION_FILES:
        shutil.copyfile(solution_dir / name, scratch / name)


def _wine_env(folder: Path) -> dict[str, str]:
    # A prefix of our own beside the binaries: the user's ~/.wine is left alone; no debug chatter.
    return {**os.environ, "WINEDEBUG": "-all", "WINEPREFIX": os.environ.get("WINEPREFIX") or str(folder / "wine")}


def official_check(instance_dir: Path, solution_dir: Path, folder: Path | None = None) -> OfficialVerdict:
    """Run the official solution checker on a scratch copy of the instance and the solution."""
    folder = folder or checker_dir()
    if reason := unavailable_reason(folder):
        raise CheckerUnavailable(reason)
    with tempfile.TemporaryDirectory(prefix="roadef-check-") as name:
        scratch = Path(name)
        _stage(instance_dir, solution_dir, scratch)
        shutil.copyfile(folder / SOLUTION_CHECKER, scratch / SOLUTION_CHECKER)
        try:
            subprocess.run(
                ["wine", SOLUTION_CHECKER, "."],
                cwd=scratch,
                env=_wine_env(folder),
                capture_output=True,
                timeout=TIMEOUT_SECONDS,
                check=False,
            )
        except subprocess.TimeoutExpired as exc:
            raise CheckerUnavailable(f"the official solution checker ran over {TIMEOUT_SECONDS} s") from exc
        results = sorted((scratch / "results").glob("*.txt"))
        if len(results) != RESULT_FILES:
            raise CheckerUnavailable(
                f"the official solution checker wrote {len(results)} result files, not {RESULT_FILES} (did Wine run it?)"
            )
        return OfficialVerdict(
            findings={
                path.name: [line.strip() for line in path.read_text(errors="replace").splitlines() if line.strip()]
                for path in results
            }
        )


def official_cost(instance_dir: Path, solution_dir: Path, checker: Path | None = None) -> float | None:
    """The official cost checker's total for the solution, or None when it is absent or prints none."""
    checker = checker or checker_dir() / COST_CHECKER
    if not os.access(checker, os.X_OK):
        return None
    with tempfile.TemporaryDirectory(prefix="roadef-cost-") as name:
        _stage(instance_dir, solution_dir, Path(name))
        try:
            report = subprocess.run(
                [str(checker), "."], cwd=name, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False
            ).stdout
        except (OSError, subprocess.TimeoutExpired):
            return None
    match = re.search(r"Total Cost:\s*(-?[\d.]+)", report)
    return float(match.group(1)) if match else None


def _fetch(name: str, source_git: str | None) -> bytes:
    if source_git:
        return subprocess.run(
            ["git", f"--git-dir={source_git}", "show", f"{SOURCE_COMMIT}:instance/{name}"],
            capture_output=True,
            check=True,
        ).stdout
    url = f"https://raw.githubusercontent.com/{SOURCE_REPOSITORY}/{SOURCE_COMMIT}/instance/{name}"
    with urllib.request.urlopen(url, timeout=60) as response:
        return response.read()


def install(folder: Path, source_git: str | None = None) -> list[str]:
    """Put the binaries in folder (verified by SHA-256); returns one line per binary, raises with the reason."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for name, digest in BINARIES.items():
        target = folder / name
        if target.is_file() and hashlib.sha256(target.read_bytes()).hexdigest() == digest:
            lines.append(f"{name}: present in {folder}")
            continue
        try:
            data = _fetch(name, source_git)
        except (OSError, subprocess.CalledProcessError) as exc:
            where = f"git directory {source_git}" if source_git else f"GitHub ({SOURCE_REPOSITORY})"
            raise CheckerUnavailable(
                f"{name}: could not be read from {where}: {exc}; set ROADEF_CHECKER_GIT to a clone's git "
                f"directory, or copy instance/{name} of commit {SOURCE_COMMIT[:7]} into {folder}"
            ) from exc
        if hashlib.sha256(data).hexdigest() != digest:
            raise CheckerUnavailable(f"{name}: SHA-256 differs from the expected {digest[:12]}…; not installed")
        target.write_bytes(data)
        target.chmod(0o755)
        lines.append(f"{name}: installed in {folder}")
    return lines


def main(argv: list[str] | None = None) -> int:
    """`python -m skymarshal.recovery.official install`: what `make roadef-checker` runs after Wine."""
    args = sys.argv[1:] if argv is None else argv
    if args != ["install"]:
        print("usage: python -m skymarshal.recovery.official install", file=sys.stderr)
        return 2
    try:
        lines = install(checker_dir(), os.environ.get("ROADEF_CHECKER_GIT") or None)
    except CheckerUnavailable as exc:
        print(f"roadef-checker: {exc}", file=sys.stderr)
        return 1
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
