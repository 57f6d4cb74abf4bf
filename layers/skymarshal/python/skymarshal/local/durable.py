"""Where the local account keeps its state: $SKYMARSHAL_HOME/local/state/.

    snapshot-N.pickle   DynamoDB and S3 as of generation N (written atomically; the newest complete one counts)
    journal-N.log       every DynamoDB/S3 write since snapshot N, in the order applied (journal.py)
    kms.pickle, cognito-idp.pickle   the key services, rewritten whole after each change (snapshot.py)
    runs/               the state machine's executions (runs.py)

Recovery = newest snapshot + its journal replayed + the key services + the runs. A checkpoint (after a
recovery, and at a clean stop) writes snapshot N+1 under the DynamoDB lock and starts journal N+1; the
older generation is deleted only after that, so a crash at any point leaves one complete generation and
its journal. The seeded airline is also kept per seed and generator version under
$SKYMARSHAL_HOME/local/seeds/, so a reset or a first start on a known seed loads instead of generating.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

from . import snapshot
from .journal import Journal, Recorder, replay
from .moto_speedups import LOCK

_SNAPSHOT = re.compile(r"snapshot-(\d+)\.pickle$")


def _generator_version() -> str:
    """A digest of data/'s source (generator, schema): a changed generator makes a new seed file."""
    from .. import data

    digest = hashlib.sha256()
    for path in sorted(Path(data.__file__ or "").parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


@dataclass
class Recovery:
    """What a start found and put back; `summary()` is the line `local start` prints."""

    generation: int = 0
    replayed: int = 0
    refused: int = 0
    key_services: list[str] = field(default_factory=list)
    runs: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def summary(self) -> str:
        if not self.generation:
            return ""
        parts = [f"state of generation {self.generation} with {self.replayed} journaled writes replayed"]
        if self.refused:
            parts.append(f"{self.refused} journaled writes refused on replay (see local.log)")
        if self.key_services:
            parts.append("KMS keys" if "kms" in self.key_services else "")
            parts.append("the Cognito pool" if "cognito-idp" in self.key_services else "")
        restored, interrupted = self.runs.get("restored", 0), self.runs.get("interrupted", 0)
        parts.append(f"{restored} runs")
        if interrupted:
            parts.append(f"{interrupted} interrupted mid-run (now ABORTED: `skymarshal resume ID` continues each)")
        if self.runs.get("executed"):
            parts.append(f"{self.runs['executed']} interrupted after executing its plan (recorded as executed)")
        return "recovered " + ", ".join(p for p in parts if p) + f" in {self.seconds:.1f} s"


class DurableState:
    def __init__(self, root: Path):
        self.root = root
        self.state = root / "state"
        # SKYMARSHAL_SEED_CACHE: one cache for several homes (the reliability tests start many servers)
        self.seeds = Path(os.environ.get("SKYMARSHAL_SEED_CACHE") or root / "seeds")
        self.recorder: Recorder | None = None

    # -- generations --------------------------------------------------------------------------
    def generation(self) -> int:
        found = [int(m.group(1)) for p in self.state.glob("snapshot-*.pickle") if (m := _SNAPSHOT.search(p.name))]
        return max(found, default=0)

    def _snapshot(self, n: int) -> Path:
        return self.state / f"snapshot-{n:06d}.pickle"

    def _journal(self, n: int) -> Path:
        return self.state / f"journal-{n:06d}.log"

    def exists(self) -> bool:
        return self.generation() > 0

    def wipe(self) -> None:
        shutil.rmtree(self.state, ignore_errors=True)

    # -- seeds ----------------------------------------------------------------------------------
    def seed_file(self, seed: int, load_factor: float) -> Path:
        return self.seeds / f"airline-{seed}-{load_factor:g}-{_generator_version()}.pickle"

    def save_seed(self, seed: int, load_factor: float) -> None:
        path = self.seed_file(seed, load_factor)
        for stale in self.seeds.glob(f"airline-{seed}-{load_factor:g}-*.pickle"):
            if stale != path:  # this version's may be another server's, being linked into its home right now
                stale.unlink(missing_ok=True)  # an older generator's airline
        own = path.with_name(f"{path.name}.{os.getpid()}.partial")  # servers sharing a cache may save it at once
        with LOCK:
            snapshot.write(own, snapshot.DATA_SERVICES)
        own.replace(path)

    def adopt_seed(self, seed_path: Path) -> None:
        """Generation 1 is the seeded airline: a hard link to the seed file (a copy across filesystems)."""
        self.state.mkdir(parents=True, exist_ok=True)
        target = self._snapshot(1)
        try:
            os.link(seed_path, target)
        except OSError:
            shutil.copyfile(seed_path, target)

    # -- recovery and checkpoints ------------------------------------------------------------
    def recover(self, app) -> Recovery:
        """Load the newest snapshot, replay its journal through `app`, restore the key services."""
        started = time.monotonic()
        recovery = Recovery(generation=self.generation())
        snapshot.read(self._snapshot(recovery.generation))
        recovery.replayed, recovery.refused = replay(app, self._journal(recovery.generation))
        for service in snapshot.KEY_SERVICES:
            path = self.state / f"{service}.pickle"
            if path.exists():
                snapshot.read(path)
                recovery.key_services.append(service)
        recovery.seconds = time.monotonic() - started
        return recovery

    def load_seed(self, seed_path: Path) -> None:
        snapshot.read(seed_path)

    def checkpoint(self) -> int:
        """Snapshot N+1 and a fresh journal; returns N+1. Writes wait meanwhile (the DynamoDB lock)."""
        with LOCK:
            current = self.generation()
            nxt = current + 1
            snapshot.write(self._snapshot(nxt), snapshot.DATA_SERVICES)
            if self.recorder is not None:
                if self.recorder.journal is not None:
                    self.recorder.journal.close()
                self.recorder.journal = Journal(self._journal(nxt))
            for old in range(1, nxt):
                self._snapshot(old).unlink(missing_ok=True)
                self._journal(old).unlink(missing_ok=True)
            return nxt

    def start_journal(self, recorder: Recorder) -> None:
        """Record from now on, into the current generation's journal."""
        self.recorder = recorder
        recorder.journal = Journal(self._journal(self.generation()))

    def save_keys(self, service: str) -> None:
        snapshot.write(self.state / f"{service}.pickle", [service])
