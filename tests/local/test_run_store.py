"""The local server's run files (local/runs.py): a running execution is saved as its history grows, an ended one
once it has ended — and then no more: its history is not rebuilt every second for the rest of the server's life,
and the memory its run freed is handed back to the machine once (local/memory_guard.release_memory)."""

from __future__ import annotations

from types import SimpleNamespace

from skymarshal.local import runs


class Execution(SimpleNamespace):
    builds = 0

    def to_history_output(self):
        Execution.builds += 1
        return {"events": [{"id": n} for n in range(self.length)]}


def test_an_ended_execution_is_saved_and_then_left_alone(tmp_path, monkeypatch):
    execution = Execution(
        name="r1", execution_input="{}", status="RUNNING", start_date=1, stop_date=None, output=None,
        error=None, cause=None, exec_worker=True, length=3,
    )  # fmt: skip
    listed = [execution]
    monkeypatch.setattr(runs, "_executions", lambda arn: listed)
    monkeypatch.setattr(runs, "_machine", lambda arn: None)

    def archived(machine, record, path):  # what replaces it: no history in memory, read from its file
        return SimpleNamespace(name=record["name"], status=record["status"], path=path)

    monkeypatch.setattr(runs, "_archived", archived)
    released: list[int] = []
    monkeypatch.setattr(runs, "release_memory", lambda: released.append(1) or True)
    store = runs.RunStore(tmp_path, "arn")
    assert store.save() == 1 and store.save() == 0  # unchanged: not written again
    execution.length = 5
    assert store.save() == 1  # its history grew
    execution.status, execution.stop_date, execution.length = "SUCCEEDED", 2, 6
    assert not released
    assert store.save() == 1 and store.save() == 0  # ended: written, then seen unchanged for a poll
    assert released == [1]  # its working memory handed back once, when it was final
    assert listed[0] is not execution and listed[0].status == "SUCCEEDED"  # archived in its place
    assert runs.pickle.loads(listed[0].path.read_bytes())["events"] == [{"id": n} for n in range(6)]
    built = Execution.builds
    for _ in range(10):
        assert store.save() == 0
    assert Execution.builds == built  # never rebuilt again
