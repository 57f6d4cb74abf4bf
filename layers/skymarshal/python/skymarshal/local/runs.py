"""The state machine's executions kept across restarts of the local server.

moto holds an execution as a live interpreter thread, which no file can hold. What `history`, `status`,
`audit` and `resume` read of it is its description and its event history, so that is what is kept: one
file per execution, written when it starts or is answered (approval, stop) and, while it runs, whenever
its history grows (polled each second). On start each is put back into the state machine as a finished
execution; one that was still running when the server died is settled from the tables first
(workflow/execution/recovery.py): if its plan was executed it comes back SUCCEEDED as executed (Learn completed, its
output the run's final state), else ABORTED with a cause that says so, which is what `skymarshal resume` takes
(its finished rounds are checkpointed in DynamoDB and reused; a plan interrupted mid-way was put back first).

An ended execution's history stays in its file, not in memory: once saved as it ended, the execution is replaced
by an archived one that reads its events from the file when asked (a run's history holds every state it passed,
megabytes at production volume: in memory, fifty runs grew the server by most of a gigabyte).
"""

from __future__ import annotations

import datetime
import json
import logging
import pickle
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .memory_guard import release_memory
from .moto_sfn import forget_finished_threads

log = logging.getLogger("skymarshal.local")
RESTART_ERROR = "SkyMarshal.LocalRestart"


def _machine(machine_arn: str):
    from moto.stepfunctions.responses import get_backend  # the interpreter's backend (execute_state_machine)

    from .account import ACCOUNT_ID, REGION

    return get_backend(ACCOUNT_ID, REGION).describe_state_machine(machine_arn)


def _executions(machine_arn: str) -> list:
    return _machine(machine_arn).executions


def _record(execution) -> dict[str, Any]:
    events = getattr(execution, "saved_events", None)
    if events is None:
        events = execution.to_history_output().get("events", []) if execution.exec_worker else []
    return {
        "name": execution.name,
        "input": execution.execution_input,
        "status": execution.status,
        "start_date": execution.start_date,
        "stop_date": execution.stop_date,
        "output": execution.output,
        "error": execution.error,
        "cause": execution.cause,
        "events": list(events),
    }


def _archived(machine, record: dict, path: Path):
    """A finished execution as moto describes it, its history read from `path` when asked (never kept)."""
    from moto.stepfunctions.parser.api import ExecutionStatus
    from moto.stepfunctions.parser.backend.execution import Execution

    from .account import ACCOUNT_ID, REGION

    class ArchivedExecution(Execution):
        @property
        def saved_events(self) -> list:
            return pickle.loads(path.read_bytes())["events"]

        def to_history_output(self):
            return {"events": self.saved_events}

    execution = ArchivedExecution(
        name=record["name"],
        sm_type=machine.sm_type,
        role_arn=machine.roleArn,
        exec_arn=machine.arn.replace(":stateMachine:", ":execution:") + f":{record['name']}",
        account_id=ACCOUNT_ID,
        region_name=REGION,
        state_machine=machine,
        start_date=record["start_date"],
        cloud_watch_logging_session=None,
        input_data=record["input"],
        trace_header=None,
        activity_store={},
    )
    execution.output, execution.error, execution.cause = record["output"], record["error"], record["cause"]
    execution.stop_date = record["stop_date"]
    execution.exec_status = ExecutionStatus(record["status"])
    return execution


class RunStore:
    """Files under `directory`, one per execution; `save` is safe from any thread."""

    def __init__(self, directory: Path, machine_arn: str):
        self.directory, self.machine_arn = directory, machine_arn
        directory.mkdir(parents=True, exist_ok=True)
        self._seen: dict[str, tuple] = {}
        self._final: set[str] = set()
        self._lock = threading.Lock()
        self._stop = threading.Event()

    def _path(self, name: str) -> Path:
        return self.directory / f"{quote(name, safe='')}.pickle"

    def save(self, force: bool = False) -> int:
        """Write each execution whose status or history length changed; returns how many were written."""
        written = ended = 0
        with self._lock:
            for execution in list(_executions(self.machine_arn)):
                if not force and execution.name in self._final:
                    continue  # ended, and saved as it ended: its history is not rebuilt each second
                record = _record(execution)
                signature = (record["status"], len(record["events"]), record["stop_date"])
                if not force and self._seen.get(execution.name) == signature:
                    if record["status"] != "RUNNING":  # unchanged for a whole poll after it ended: final
                        self._final.add(execution.name)
                        self._archive(execution, record)
                        ended += 1
                    continue
                path = self._path(execution.name)
                tmp = path.with_suffix(".tmp")
                tmp.write_bytes(pickle.dumps(record, protocol=pickle.HIGHEST_PROTOCOL))
                tmp.replace(path)
                self._seen[execution.name] = signature
                written += 1
        if ended:  # a run's working memory is garbage now: handed back before the next run grows on top of it
            forget_finished_threads()
            release_memory()
        return written

    def _archive(self, execution, record: dict) -> None:
        """Swap the ended execution for one whose history stays in its file (moto lists it the same)."""
        executions = _executions(self.machine_arn)
        for index, listed in enumerate(executions):
            if listed is execution:
                executions[index] = _archived(_machine(self.machine_arn), record, self._path(execution.name))
                return

    def watch(self, interval_s: float = 1.0) -> None:
        def loop() -> None:
            while not self._stop.wait(interval_s):
                try:
                    self.save()
                except Exception:  # a failed poll is retried next second; the next change rewrites it
                    log.exception("saving the executions failed")

        threading.Thread(target=loop, name="skymarshal-runs", daemon=True).start()

    def close(self) -> None:
        self._stop.set()
        self.save()

    def restore(self, settle: Callable[[str, str], Any] | None = None) -> dict[str, int]:
        """Put every saved execution back; returns counts: restored, those interrupted mid-run (ABORTED) and those
        whose plan had been executed (SUCCEEDED). `settle(name, input)` -> workflow.execution.recovery.Settled."""
        from moto.stepfunctions.parser.api import ExecutionStatus

        machine = _machine(self.machine_arn)
        known = {e.name for e in machine.executions}
        counts = {"restored": 0, "interrupted": 0, "executed": 0}
        for path in sorted(self.directory.glob("*.pickle")):
            record = pickle.loads(path.read_bytes())
            if record["name"] in known:
                continue
            status = record["status"]
            execution = _archived(machine, {**record, "status": "ABORTED" if status == "RUNNING" else status}, path)
            settled = _settled(settle, record) if record["status"] == "RUNNING" else None
            if settled is not None and settled.output is not None:  # its plan was executed: so it is recorded
                counts["executed"] += 1
                execution.exec_status = ExecutionStatus.SUCCEEDED
                execution.stop_date = datetime.datetime.now(tz=datetime.UTC)
                execution.output = json.dumps(settled.output, default=str)
                execution.error, execution.cause = None, None
                log.warning("recovered %s", settled.message)
            elif record["status"] == "RUNNING":
                counts["interrupted"] += 1
                execution.exec_status = ExecutionStatus.ABORTED
                execution.stop_date = datetime.datetime.now(tz=datetime.UTC)
                execution.error = RESTART_ERROR
                execution.cause = (
                    "local AWS stopped while this run was in progress; `skymarshal resume "
                    f"{record['name']}` continues it from its checkpointed rounds"
                    + (f" ({settled.message})" if settled is not None and settled.verdict == "interrupted" else "")
                )
            machine.executions.append(execution)
            self._final.add(execution.name)  # ended, its history in its file
            counts["restored"] += 1
        self.save(force=True)  # the interrupted ones are now ABORTED on disk too
        return counts


def _settled(settle: Callable[[str, str], Any] | None, record: dict) -> Any:
    """What the tables say the interrupted execution did; None (left ABORTED) if they cannot be read."""
    if settle is None:
        return None
    try:
        return settle(record["name"], record["input"])
    except Exception:  # never stop the server coming back over one run: it stays ABORTED, resumable
        log.exception("settling %s after the restart failed", record["name"])
        return None


def settler(account) -> Callable[[str, str], Any]:
    """`settle` for RunStore.restore on the local account: its tables, artifacts, audit trail and data."""
    from ..workflow.aws.s3 import S3Objects
    from ..workflow.execution.recovery import release_flight, settle
    from ..workflow.payloads import ArtifactStore
    from .emulator import BUCKET
    from .workflow import local_trail

    store = ArtifactStore(BUCKET, S3Objects(account.client("s3")))
    tables, trail = account.tables(), local_trail(account)

    def run(name: str, execution_input: str) -> Any:
        settled = settle(name, execution_input, tables=tables, store=store, handle=account.handle(), trail=trail)
        if settled.output is None:  # it comes back ABORTED: its flight is free at once (issue 48), not at the lapse
            freed = release_flight(name, settled.disruption_id, tables=tables, store=store)
            if freed:
                log.warning("%s: %s", name, freed)
        return settled

    return run


def sweep_messages(account) -> dict[str, int]:
    """Publish every run's stored messages the bus has not taken (workflow/execution/outbox.sweep): at local start,
    after the runs are restored, so a message stored by an Execute the restart cut short is not left silent."""
    from ..workflow.aws.events import EventBridgeBus
    from ..workflow.aws.s3 import S3Objects
    from ..workflow.execution.outbox import sweep
    from ..workflow.execution.publish import MessageBus
    from ..workflow.payloads import ArtifactStore
    from ..workflow.steps.decision import publication_noted
    from .emulator import BUCKET
    from .workflow import local_trail, message_bus

    store = ArtifactStore(BUCKET, S3Objects(account.client("s3")))
    bus = MessageBus(message_bus(account), EventBridgeBus(account.client("events")))
    return sweep(store, bus=bus, noted=publication_noted(local_trail(account), store))
