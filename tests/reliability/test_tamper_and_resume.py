"""Tamper with each kind of artifact an audit record names, and resume over an edited round checkpoint: the
chain names the record, `audit` shows an export derived again (never the stored one), a resume refuses on one
line and starts nothing, and a legitimate resume leaves the first run's artifacts and chain verifying.

System tier: the synthesized state machine run by moto with the real handlers (one reject run shared by the
tamper cases; each case puts the bytes back)."""

from __future__ import annotations

import json
import uuid

import pytest

from skymarshal.cli import main
from skymarshal.local import workflow as local_workflow
from skymarshal.workflow.audit.trail import sha256
from skymarshal.workflow.models import ApprovalDecision
from skymarshal.workflow.runs.reuse import CheckpointRefused

DEMO = "Flight EY123 on January 20th had a mechanical failure"


def _id(tag: str) -> str:
    return f"r-{tag}-{uuid.uuid4().hex[:6]}"


def _fail_when(seen: list, when) -> None:
    def wrapped(name, handler, event):
        seen.append((name, event.get("phase")))
        if when(name, event):
            raise RuntimeError(f"injected failure in {name}")
        return handler(event, local_workflow._Context(name))

    local_workflow.registry().wrap = wrapped


@pytest.fixture
def s3(wf):
    return wf.store.objects.client, wf.store.bucket  # S3Objects: the emulated account's client


def _objects(s3, prefix: str) -> dict[str, str]:
    client, bucket = s3
    listing = client.list_objects_v2(Bucket=bucket, Prefix=prefix).get("Contents", [])
    return {o["Key"]: sha256(client.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()) for o in listing}


@pytest.fixture(scope="module")
def rejected(wf):
    """One run to its end (rejected: nothing executed), shared by the tamper cases."""
    name = wf.start(DEMO, disruption_id=_id("tamper"))["execution_name"]
    assert wf.follow(name, timeout_s=600).awaiting_approval
    wf.decide(name, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="not today"))
    assert wf.follow(name).status == "SUCCEEDED"
    assert wf.verify(name).ok
    return name


KINDS = {  # artifact → (the record kind that names it, how to find its key)
    "request": ("request", "request.json"),
    "collation": ("round", "collation-initial.json"),
    "round checkpoint": ("round", "phase-revision.json"),
    "decision": ("decision", "decision-1.json"),
    "audit export": ("export", "audit.json"),
}


@pytest.mark.parametrize("kind", list(KINDS))
def test_an_edited_artifact_of_each_kind_fails_verification_naming_its_record(wf, rejected, s3, kind):
    client, bucket = s3
    record_kind, file = KINDS[kind]
    key = f"runs/{rejected}/{rejected}/{file}"
    original = client.get_object(Bucket=bucket, Key=key)["Body"].read()
    record = next(
        r
        for r in wf.trail.records(rejected)
        if r.kind == record_kind and any(a.get("key") == key for a in _named(r.body))
    )
    client.put_object(Bucket=bucket, Key=key, Body=original.replace(b"Dana Duty", b"Mallory").replace(b"}", b" }", 1))
    try:
        problems = [(p.code, p.seq, p.message) for p in wf.verify(rejected).problems]
        assert problems == [("ARTIFACT_CHANGED", record.seq, f"s3://{bucket}/{key} changed after record {record.seq}")]
    finally:
        client.put_object(Bucket=bucket, Key=key, Body=original)
    assert wf.verify(rejected).ok


def test_a_large_agent_output_is_hashed_in_its_round(wf, rejected, s3):
    agents = [k for k in _objects(s3, f"runs/{rejected}/{rejected}/agent-")]
    assert agents, "the demo's largest agent results exceed the inline limit and are stored"
    named = {a["key"] for r in wf.trail.records(rejected) if r.kind == "round" for a in r.body["agent_outputs"]}
    assert set(agents) == named


def test_a_forged_export_is_never_what_audit_shows(wf, rejected, s3, local, capsys, tmp_path, monkeypatch):
    client, bucket = s3
    key = f"runs/{rejected}/{rejected}/audit.json"
    original = client.get_object(Bucket=bucket, Key=key)["Body"].read()
    forged = json.loads(original)
    forged["approvals"][0]["decided_by"] = "Mallory"
    client.put_object(Bucket=bucket, Key=key, Body=json.dumps(forged).encode())
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    try:
        assert main(["audit", rejected]) == 0
        shown = json.loads(capsys.readouterr().out)
        assert shown["derived"] is True and shown["approvals"][0]["decided_by"] == "Dana Duty"
        assert [p["code"] for p in shown["verification"]["problems"]] == ["ARTIFACT_CHANGED"]
        assert main(["audit", "verify", rejected]) == 1
        seq = wf.trail.by_key(rejected, f"export:{rejected}").seq
        out = capsys.readouterr().out
        assert f"ARTIFACT_CHANGED: record {seq}: s3://{bucket}/{key} changed after record {seq}" in out
    finally:
        client.put_object(Bucket=bucket, Key=key, Body=original)


def _named(body: dict) -> list[dict]:
    from skymarshal.workflow.audit.trail import referenced_artifacts

    return referenced_artifacts(body)


def _failed_in_revision(wf, tag: str) -> str:
    seen: list = []
    _fail_when(seen, lambda name, event: name.startswith("FunctionsCollate") and event.get("phase") == "revision")
    try:
        name = wf.start(DEMO, disruption_id=_id(tag))["execution_name"]
        assert wf.follow(name, timeout_s=600).status == "FAILED"
    finally:
        local_workflow.registry().wrap = None
    return name


def test_a_resume_keeps_the_first_runs_artifacts_and_its_chain_verifying(wf, s3):
    first = _failed_in_revision(wf, "resume")
    before = _objects(s3, f"runs/{first}/{first}/")
    assert wf.verify(first).ok
    resumed = wf.resume(first)["execution_name"]
    assert wf.follow(resumed, timeout_s=600).awaiting_approval
    wf.decide(resumed, ApprovalDecision(action="reject", decided_by="Dana Duty", comment="test over"))
    assert wf.follow(resumed).status == "SUCCEEDED"
    assert _objects(s3, f"runs/{first}/{first}/") == before  # nothing of the first run rewritten
    assert f"runs/{first}/{resumed}/phase-initial.json" in _objects(s3, f"runs/{first}/{resumed}/")
    verification = wf.verify(first)
    assert verification.ok, verification.problems
    records = wf.trail.records(first)
    original = next(r for r in records if r.key == f"round:initial:{first}")
    reused = next(r for r in records if r.key == f"round:initial:{resumed}")
    assert reused.body["reused_from"] == {"execution_name": first, "seq": original.seq, "hash": original.hash}
    assert reused.body["artifact"] == original.body["artifact"]  # the collation linked, not copied


def test_an_edited_round_checkpoint_is_refused_by_resume_on_one_line(wf, s3, local, capsys):
    first = _failed_in_revision(wf, "edited")
    client, bucket = s3
    key = f"runs/{first}/{first}/phase-initial.json"
    checkpoint = json.loads(client.get_object(Bucket=bucket, Key=key)["Body"].read())
    checkpoint["safety_failed"] = False
    checkpoint["statuses"]["maintenance"] = "ok"
    checkpoint["failed"] = []
    client.put_object(Bucket=bucket, Key=key, Body=json.dumps(checkpoint).encode() + b" ")
    record = wf.trail.by_key(first, f"round:initial:{first}")
    expected = (
        f"CHECKPOINT_CHANGED: the initial round of {first} (s3://{bucket}/{key}) changed after audit record "
        f"{record.seq}: not reused; start a new run instead"
    )
    with pytest.raises(CheckpointRefused) as refused:
        wf.resume(first)
    assert str(refused.value) == expected
    assert main(["resume", first]) == 1
    _, err = capsys.readouterr()
    assert err == f"skymarshal: {expected}\n"
    assert not [e for e in wf.executions(limit=1000) if e["name"].startswith(f"{first}--resume")]  # nothing started
