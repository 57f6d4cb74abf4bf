"""The memory bench measures what it says: a handler's own peak allocation, each function's configured memory."""

from __future__ import annotations

import json
import threading

import pytest

from bench.handler_memory import Profiler, configured_memory

pytestmark = pytest.mark.unit


def test_a_handlers_peak_is_what_it_allocated_while_it_ran():
    profiler = Profiler()
    kept = bytearray(4 * 2**20)  # allocated before: not the handler's

    def handler(event, context):
        buffer = bytearray(event["mb"] * 2**20)
        return len(buffer) + len(kept) * 0

    threads = [threading.Thread(target=profiler, args=("F", handler, {"mb": mb})) for mb in (8, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert profiler.calls == {"F": 2}
    assert 8 * 2**20 <= profiler.peaks["F"] < 9 * 2**20  # the larger call's, one at a time, nothing from before


def test_configured_memory_is_each_functions_memory_size(tmp_path):
    template = tmp_path / "t.json"
    template.write_text(
        json.dumps(
            {
                "Resources": {
                    "Execute": {"Type": "AWS::Lambda::Function", "Properties": {"MemorySize": 512}},
                    "Bare": {"Type": "AWS::Lambda::Function", "Properties": {}},
                    "Bucket": {"Type": "AWS::S3::Bucket", "Properties": {}},
                }
            }
        )
    )
    assert configured_memory(template) == {"Execute": 512, "Bare": 128}
