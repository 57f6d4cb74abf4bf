"""`skymarshal local start --schedule FILE.ssim [--tails FILE]`: the local account with an airline's own schedule.

Every table but the flights is seeded as on any first start (the synthetic airline's fleet, crews, bookings, ...);
the flights table is then emptied and filled from the SSIM file through the same import as `data import-ssim`
(`ssim_import.import_ssim`: refusals `line N: field: problem`, all or nothing, seats counted from the bookings).

All or nothing across the two processes: the CLI reads the whole file first (`schedule_problems`) and starts no
server when it has a problem; should the server's import fail all the same, it forgets the account it had seeded
(`load_schedule` wipes the durable state), so the next start is a clean first start, never half a schedule.
The account remembers which schedule it holds (`SCHEDULE_FILE` beside its state): a later start with the same
file recovers it as usual; a start with another file, or with one on a synthetic account, is refused on one line.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..data.schema import CHECKPOINTS, FLIGHTS
from ..data.ssim_import import import_ssim, read_schedule
from ..data.ssim_import import tails_path as default_tails_path
from .account import SEED_MARKER, LocalAccount

if TYPE_CHECKING:
    from .durable import DurableState

SCHEDULE_FILE = "schedule.json"  # in the durable state folder: wiped with it (`local reset`)


class ScheduleRefused(ValueError):
    """The schedule cannot be loaded; `problems` are its `line N: field: problem` lines."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or []


@dataclass(frozen=True)
class Schedule:
    """The schedule file and its tail file, as the account records them."""

    path: str
    tails: str | None
    sha256: str  # of the schedule's bytes, then the tail file's

    @classmethod
    def of(cls, path: Path, tails: Path | None) -> Schedule:
        tails = tails if tails is not None else _default_tails(path)
        digest = hashlib.sha256(path.read_bytes())
        if tails is not None:
            digest.update(tails.read_bytes())
        return cls(str(path.resolve()), str(tails.resolve()) if tails else None, digest.hexdigest())

    @property
    def tails_path(self) -> Path | None:
        return Path(self.tails) if self.tails else None


def _default_tails(path: Path) -> Path | None:
    found = default_tails_path(path)
    return found if found.exists() else None


def schedule_problems(path: Path, tails: Path | None) -> list[str]:
    """Every problem `data import-ssim` would refuse the file for (nothing is written); [] when it would import."""
    try:
        _, problems, _ = read_schedule(path, tails if tails is not None else _default_tails(path))
    except OSError as exc:
        return [f"{exc.filename}: {exc.strerror}"]
    return problems


def held_schedule(state: Path) -> Schedule | None:
    """The schedule the account in `state` was started from (None: the synthetic airline's flights)."""
    try:
        return Schedule(**json.loads((state / SCHEDULE_FILE).read_text()))
    except (FileNotFoundError, json.JSONDecodeError, TypeError):
        return None


def check_start(schedule: Schedule | None, state: Path, exists: bool) -> None:
    """Refuse (ScheduleRefused) a start whose schedule is not the one the account already holds."""
    if not exists or schedule is None:
        return
    held = held_schedule(state)
    if held is not None and held.sha256 == schedule.sha256:
        return
    what = f"the schedule {held.path}" if held else "the synthetic airline's flights"
    raise ScheduleRefused(
        f"local AWS already holds an account with {what}: `skymarshal local reset --schedule {schedule.path}` "
        "starts it again from this schedule (forgetting its runs); `skymarshal data import-ssim` loads it into "
        "the running one"
    )


def load_schedule(account: LocalAccount, schedule: Schedule, durable: DurableState) -> str:
    """Replace the freshly seeded account's flights by the schedule's and checkpoint it; what it did, for the log.
    On any failure the seeded account is forgotten before the error goes on: nothing half-seeded remains."""
    started = time.monotonic()
    try:
        ddb = account.client("dynamodb")
        ddb.delete_table(TableName=account.naming(FLIGHTS))
        ddb.get_waiter("table_not_exists").wait(TableName=account.naming(FLIGHTS))
        account.create(None)  # the flights table again, empty, with its indexes, TTL and backups
        report = import_ssim(Path(schedule.path), account.resource(), account.naming, tails_path=schedule.tails_path)
        if not report.ok:
            raise ScheduleRefused(f"{len(report.errors)} problem(s) in {schedule.path}", report.errors)
        flights = report.written[FLIGHTS]
        _count_flights(account, flights, schedule)
        durable.state.mkdir(parents=True, exist_ok=True)
        (durable.state / SCHEDULE_FILE).write_text(json.dumps(asdict(schedule), indent=2))
        durable.checkpoint()  # the first generation is the seed file itself: the schedule's account is the next
        return f"{flights} flights in {time.monotonic() - started:.1f} s"
    except Exception:
        durable.wipe()
        raise


def _count_flights(account: LocalAccount, flights: int, schedule: Schedule) -> None:
    """The seed marker's counts say the schedule's flights (`skymarshal demo`, `local status` read them)."""
    table = account.resource().Table(account.naming(CHECKPOINTS))
    item = table.get_item(Key=SEED_MARKER).get("Item") or {**SEED_MARKER, "config": "{}", "counts": "{}"}
    counts = {**json.loads(item["counts"]), FLIGHTS: flights}
    table.put_item(Item={**item, "counts": json.dumps(counts), "schedule": schedule.path})
