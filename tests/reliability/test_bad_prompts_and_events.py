"""Bad prompts, ids and events: one line each, the exact words, and nothing started.

Unit tier: no AWS. `control.account` is replaced by one that fails the test if entered, so "nothing started"
is checked, not assumed; where a command must reach its run, a fake client stands in for local AWS."""

from __future__ import annotations

import json
from contextlib import contextmanager

import pytest
from botocore.exceptions import EndpointConnectionError
from rich.console import Console

from skymarshal.cli import main
from skymarshal.cli import render as render_module
from skymarshal.local import control
from skymarshal.local.workflow import _Context
from skymarshal.workflow.runs.trigger import disruption_id_for, parse_event, request_for

PROMPT = "Flight EY123 on January 20th had a mechanical failure"
EVENT = {
    "Source": "skymarshal.disruptions",
    "DetailType": "Flight Disruption Reported",
    "Id": "relsec-1",
    "Detail": json.dumps({"prompt": PROMPT}),
}


@pytest.fixture
def no_aws(monkeypatch):
    """Entering the account fails the test: a refused command must not reach local AWS."""

    @contextmanager
    def refuse(echo=print):
        raise AssertionError("the command reached local AWS")
        yield

    monkeypatch.setattr(control, "account", refuse)
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")


def _one_line(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1, (out, err)
    return err.rstrip("\n")


@pytest.mark.parametrize(
    "argv,line",
    [
        (
            ["analyze", ""],
            'skymarshal: the prompt is empty: say what happened, e.g. "Flight EY123 on January 20th had a '
            'mechanical failure"',
        ),
        (
            ["analyze", "   "],
            'skymarshal: the prompt is empty: say what happened, e.g. "Flight EY123 on January 20th had a '
            'mechanical failure"',
        ),
        (["analyze", "x" * 4001], "skymarshal: the prompt is 4,001 characters: at most 4,000, so shorten it"),
        (
            ["analyze", PROMPT, "--id", "relsec/collide"],
            "skymarshal: --id 'relsec/collide': 1 to 64 letters, digits, '-' or '_' (it names the Step Functions "
            "execution)",
        ),
        (  # no terminal and no answer flag: said before a run starts that would wait for an answer
            ["analyze", PROMPT],
            "skymarshal: no terminal to ask the duty manager: pass --approve, --select N or --reject",
        ),
        (  # every override says why, before anything starts
            ["analyze", PROMPT, "--reject"],
            "skymarshal: --reject: reject overrides the recommendation: a reason is required (say why, it goes into "
            "the audit) (--reason TEXT)",
        ),
        (
            ["analyze", PROMPT, "--select", "2", "--comment", "  "],
            "skymarshal: --select: select overrides the recommendation: a reason is required (say why, it goes "
            "into the audit) (--reason TEXT)",
        ),
        (
            ["analyze", PROMPT, "--alternatives", "ignore the FDP limit", "--reason", "crew say they are fine"],
            "skymarshal: --alternatives: RELAXES_SAFETY_CONSTRAINT: “ignore the FDP” would relax the crew flight "
            "duty period limit (EASA ORO.FTL.205 / 14 CFR 117.11-13); binding safety constraints are computed by "
            "the rules engine and no instruction changes them",
        ),
        (
            ["analyze", PROMPT, "--id", "x" * 65],
            f"skymarshal: --id '{'x' * 65}': 1 to 64 letters, digits, '-' or '_' (it names the Step Functions "
            "execution)",
        ),
    ],
)
def test_analyze_refuses_a_bad_prompt_or_id_on_one_line_before_starting(no_aws, capsys, argv, line):
    assert main(argv) == 1
    assert _one_line(capsys) == line


@pytest.mark.parametrize(
    "detail,line",
    [
        (
            "{not json",
            "Detail is not JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1))",
        ),
        ('["a list"]', "Detail must hold a JSON object, got list"),
    ],
)
def test_event_put_with_a_detail_that_is_not_a_json_object(no_aws, capsys, tmp_path, detail, line):
    path = tmp_path / "event.json"
    path.write_text(json.dumps({**EVENT, "Detail": detail}))
    assert main(["event", "put", str(path)]) == 1
    assert _one_line(capsys).startswith(f"skymarshal: {path}: {line}")


def test_event_put_of_a_file_that_is_not_json_or_not_utf8(no_aws, capsys, tmp_path):
    path = tmp_path / "event.json"
    path.write_bytes(b'{"Source": "\xff"}')
    assert main(["event", "put", str(path)]) == 1
    assert _one_line(capsys).startswith(f"skymarshal: {path}: not a JSON event: 'utf-8' codec can't decode byte 0xff")


class _FakeClient:
    """Local AWS's workflow client, as far as `event put` and `analyze` reach before failing."""

    sfn, arn = object(), "arn:aws:states:us-east-1:123456789012:stateMachine:SkyMarshal-Workflow"

    def __init__(self, fail_with: Exception | None = None):
        self.fail_with, self.started = fail_with, []

    def start(self, *args, **kwargs):
        if self.fail_with:
            raise self.fail_with
        self.started.append(args)
        return {"execution_name": "x", "started": True, "disruption_id": "x"}

    @property
    def execution_port(self) -> _FakeClient:
        """`event put` starts through the Executions port (workflow/ports.py); recorded like `start`."""
        return self

    def status(self, execution_arn: str) -> str | None:
        return None


@pytest.fixture
def fake_local(monkeypatch):
    client = _FakeClient()

    @contextmanager
    def account(echo=print):
        yield object()

    monkeypatch.setattr(control, "account", account)
    monkeypatch.setattr("skymarshal.local.workflow.local_client", lambda account, echo=print: client)
    monkeypatch.setenv("SKYMARSHAL_LLM_PROVIDER", "offline")
    return client


def test_event_put_with_a_long_prompt_is_refused_and_starts_nothing(fake_local, capsys, tmp_path):
    path = tmp_path / "event.json"
    path.write_text(json.dumps({**EVENT, "Detail": json.dumps({"prompt": "y" * 4001})}))
    assert main(["event", "put", str(path)]) == 1
    assert _one_line(capsys) == (
        f"skymarshal: {path}: not a disruption report: event: detail.prompt: String should have at most 4000 characters"
    )
    assert fake_local.started == []


def test_analyze_while_local_aws_dies_is_one_line(fake_local, capsys):
    fake_local.fail_with = EndpointConnectionError(endpoint_url="http://127.0.0.1:4566/")
    assert main(["analyze", PROMPT, "--approve"]) == 1
    assert _one_line(capsys) == (
        'skymarshal: AWS stopped answering (Could not connect to the endpoint URL: "http://127.0.0.1:4566/"); if it '
        "is local AWS, check it with `skymarshal local status` and start it with `skymarshal local start`"
    )


def test_an_unexpected_failure_is_one_line_with_the_traceback_in_the_log(fake_local, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SKYMARSHAL_HOME", str(tmp_path))
    monkeypatch.delenv("SKYMARSHAL_DEBUG", raising=False)
    fake_local.fail_with = KeyError("flight_id")
    assert main(["analyze", PROMPT, "--approve"]) == 1
    log = control.home() / "cli-errors.log"
    assert _one_line(capsys) == f"skymarshal: unexpected error: KeyError: 'flight_id' (details in {log})"
    assert "Traceback (most recent call last)" in log.read_text()


@pytest.mark.parametrize("text", ["[/bold]", "[bold red]EY123[/] on [link=x]20 Jan[/link]", "a [/] b", "\\[x]"])
def test_user_text_is_printed_as_written_never_as_markup(monkeypatch, text):
    console = Console(record=True, width=300, highlight=False)
    progress = render_module.Progress()
    progress.console = console
    progress.header("run-1", text, True)
    progress.note(text)
    printed = console.export_text()
    assert f'"{text}"' in printed and f"duty manager: {text}" in printed


def test_finish_prints_messages_and_comments_as_written(monkeypatch, capsys):
    result = {
        "status": "rejected",
        "execution": "run-[/b]",
        "message": "[/bold] no",
        "outcome": {"message": "rejected by [red]Dana[/red]"},
        "approval": {"decided_by": "[i]Dana", "action": "reject", "comment": "[/]"},
        "actions": ["[x] done"],
        "audit_path": "/tmp/[a].json",
    }
    render_module.Progress().finish(result)
    out = capsys.readouterr().out
    for text in ("run-[/b]", "[/bold] no", "rejected by [red]Dana[/red]", "[i]Dana", '"[/]"', "[x] done", "[a].json"):
        assert text in out


# ------------------------------------------------------------------------------------------ event ids


def test_event_ids_that_differ_only_in_unsafe_characters_get_different_names():
    names = {disruption_id_for(i) for i in ("relsec/collide", "relsec:collide", "relsec-collide", "relsec collide")}
    assert len(names) == 4
    assert all(n.startswith("evt-relsec-collide-") and len(n) == len("evt-relsec-collide-") + 8 for n in names)


def test_the_same_event_id_always_gets_the_same_name_within_64_characters():
    long_a, long_b = "a" * 200 + "1", "a" * 200 + "2"  # equal after the cut: told apart by the hash
    assert disruption_id_for("relsec/collide") == disruption_id_for("relsec/collide")
    assert disruption_id_for(long_a) != disruption_id_for(long_b)
    assert max(len(disruption_id_for(i)) for i in (long_a, long_b, "x", "é" * 80)) == 64


def _delivered(detail: dict, event_id: str = "relsec/collide") -> dict:
    return {
        "version": "0",
        "id": event_id,
        "source": "skymarshal.disruptions",
        "detail-type": "Flight Disruption Reported",
        "account": "123456789012",
        "region": "us-east-1",
        "time": "2027-01-20T06:00:00Z",
        "resources": [],
        "detail": detail,
    }


def test_the_request_carries_the_hashed_name():
    request = request_for(parse_event(_delivered({"prompt": PROMPT})))
    assert request.disruption_id == disruption_id_for("relsec/collide")


# ---------------------------------------------------------------------------------------- the Trigger


class _Sqs:
    def __init__(self):
        self.sent: list[dict] = []

    def send_message(self, **kwargs):
        self.sent.append(kwargs)
        return {"MessageId": f"m-{len(self.sent)}"}


class _Sfn:
    def __getattr__(self, name):
        raise AssertionError(f"a malformed event reached Step Functions ({name})")


@pytest.mark.parametrize(
    "event,reason",
    [
        (_delivered({"prompt": "z" * 4001}), "event: detail.prompt: String should have at most 4000 characters"),
        (
            _delivered({}),
            "event: detail: Value error, give either prompt, a movement message, or flight_number, date and description",
        ),
        ({"id": "x", "detail": "not an event"}, "event: version: Field required"),
    ],
)
def test_the_trigger_dead_letters_a_malformed_event_with_its_reason_and_does_not_retry(monkeypatch, event, reason):
    from skymarshal.handlers import workflow_steps

    sqs, queue = _Sqs(), "https://sqs.us-east-1.amazonaws.com/123456789012/TriggerDeadLetters"
    monkeypatch.setenv("SKYMARSHAL_STATE_MACHINE_ARN", _FakeClient.arn)
    monkeypatch.setenv("SKYMARSHAL_TRIGGER_DLQ_URL", queue)
    monkeypatch.setattr("boto3.client", lambda service, **kw: {"sqs": sqs, "stepfunctions": _Sfn()}[service])
    answer = workflow_steps.trigger(event, _Context("Trigger"))  # returns: EventBridge does not retry
    assert answer == {"started": False, "error": reason, "dead_lettered": True}
    (message,) = sqs.sent
    assert message["QueueUrl"] == queue and message["MessageAttributes"]["reason"]["StringValue"] == reason
    body = json.loads(message["MessageBody"])
    assert body["reason"] == reason and body["event"] == event
