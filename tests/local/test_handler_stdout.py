"""A handler run in the CLI's process logs to stderr: its Powertools logger (which binds the stream it finds when
made, at the handler's cold-start import) never writes on stdout, which `skymarshal analyze --json` keeps for the
JSON alone (the Bedrock start-up check's "bedrock models" line broke every machine reader)."""

from __future__ import annotations

import json
import uuid

from skymarshal.local.workflow import ColdStartHandler, LocalFunction, _Context

HANDLER = """
from aws_lambda_powertools import Logger

logger = Logger(service="{service}", level="INFO")
logger.info("bedrock models", extra={{"models": ["global.anthropic.claude"]}})


def handler(event, context):
    logger.info("handled")
    return {{"ok": True}}
"""


def test_a_handlers_logs_go_to_stderr_and_stdout_stays_clean(tmp_path, capsys):
    service = f"t-{uuid.uuid4().hex[:6]}"
    (tmp_path / "handler.py").write_text(HANDLER.format(service=service))
    fn = LocalFunction(logical_id=f"Fn{service.replace('-', '')}", handler="handler.handler", asset_dir=tmp_path)
    assert ColdStartHandler(fn)({}, _Context(fn.logical_id)) == {"ok": True}
    out, err = capsys.readouterr()
    assert out == ""
    lines = [json.loads(line) for line in err.splitlines() if line.startswith("{")]
    assert [line["message"] for line in lines if line.get("service") == service] == ["bedrock models", "handled"]


def test_handlers_imported_at_once_leave_stdout_where_it_was(tmp_path):
    import sys
    import threading

    before = sys.stdout
    handlers = []
    for i in range(8):
        folder = tmp_path / f"fn{i}"
        folder.mkdir()
        slow = "import time\ntime.sleep(0.02)  # imports overlap, as a Map's agents' do\n"
        (folder / "handler.py").write_text(slow + HANDLER.format(service=f"t-{uuid.uuid4().hex[:6]}"))
        handlers.append(
            ColdStartHandler(LocalFunction(f"FnAtOnce{i}{uuid.uuid4().hex[:4]}", "handler.handler", folder))
        )
    threads = [threading.Thread(target=h, args=({}, _Context("x"))) for h in handlers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sys.stdout is before
