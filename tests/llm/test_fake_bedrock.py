"""The real langchain-aws → botocore path against the local Bedrock fake: Converse and ConverseStream,
strict model ids, throttling, service errors, stalls, malformed and oversized replies. No airline needed."""

from __future__ import annotations

import time

import pytest
from botocore.exceptions import ClientError, ReadTimeoutError
from fake_bedrock import Fail, Raw, Stall, encode_event, text, throttle, tool
from langchain_aws import ChatBedrockConverse
from pydantic import BaseModel

from skymarshal.llm.failures import classify
from skymarshal.llm.provider import BedrockSettings, bounded_config, chat_model, worst_case_s

SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0"


class Answer(BaseModel):
    flight_number: str
    reason: str


def _model(model_id: str = f"eu.{SONNET}", budget: float = 10.0, attempts: int = 2) -> ChatBedrockConverse:
    return ChatBedrockConverse(
        model=model_id,
        region_name="eu-west-1",
        max_tokens=200,
        config=bounded_config(budget, BedrockSettings(max_attempts=attempts)),
    )


def test_the_event_stream_encoder_is_what_botocore_decodes() -> None:
    from botocore.eventstream import EventStreamBuffer

    buffer = EventStreamBuffer()
    buffer.add_data(encode_event({":event-type": "messageStop", ":message-type": "event"}, b'{"stopReason":"x"}'))
    message = next(iter(buffer))
    assert message.headers[":event-type"] == "messageStop" and message.payload == b'{"stopReason":"x"}'


def test_converse_and_structured_output_through_langchain_aws(fake_bedrock) -> None:
    fake_bedrock.script(text("Delay 90 minutes."))
    assert _model().invoke("what now?").content == "Delay 90 minutes."
    fake_bedrock.tool_inputs["Answer"] = {"flight_number": "EY123", "reason": "mechanical"}
    answer = _model().with_structured_output(Answer).invoke("which flight?")
    assert answer == Answer(flight_number="EY123", reason="mechanical")
    assert [s.model_id for s in fake_bedrock.seen] == [f"eu.{SONNET}"] * 2


def test_converse_stream_through_langchain_aws(fake_bedrock) -> None:
    fake_bedrock.script(text("Swap to A6-BLT and depart on time."))
    chunks = [c.content for c in _model().stream("what now?")]
    joined = "".join(
        part["text"] if isinstance(part, dict) else part
        for c in chunks
        for part in (c if isinstance(c, list) else [c])
        if part
    )
    assert joined == "Swap to A6-BLT and depart on time."
    assert fake_bedrock.seen[-1].operation == "converse-stream"


def test_the_configured_chat_model_reaches_the_fake_as_the_regional_profile(fake_bedrock) -> None:
    llm = chat_model("agent", "crew_compliance")
    fake_bedrock.script(text("ok"))
    llm.invoke("hi")
    assert fake_bedrock.seen[-1].model_id.startswith("eu.anthropic.claude-sonnet-4-5")


@pytest.mark.parametrize(
    ("model_id", "message"),
    [
        (SONNET, "on-demand throughput isn’t supported"),  # what Bedrock says to a bare id
        (f"us.{SONNET}", "model identifier is invalid"),  # a us. profile called in eu-west-1
        ("eu.anthropic.claude-nonexistent-v1:0", "model identifier is invalid"),
    ],
)
def test_the_fake_refuses_ids_bedrock_refuses(fake_bedrock, model_id, message) -> None:
    with pytest.raises(ClientError, match=message) as caught:
        _model(model_id).invoke("hi")
    assert classify(caught.value) == "model_id_refused"
    assert len(fake_bedrock.seen) == 1  # a validation error is not retried


def test_throttling_is_retried_within_the_attempts_then_reported(fake_bedrock) -> None:
    fake_bedrock.script(throttle(), text("after one retry"))
    assert _model(attempts=2).invoke("hi").content == "after one retry"
    fake_bedrock.script(throttle(), throttle(), throttle())
    with pytest.raises(ClientError) as caught:
        _model(attempts=2).invoke("hi")
    assert classify(caught.value) == "throttled" and len(fake_bedrock.seen) == 4  # 2 + 2 attempts, no more


@pytest.mark.parametrize(
    ("fail", "reason"),
    [
        (Fail(500, "InternalServerException", "boom"), "service_error"),
        (Fail(424, "ModelErrorException", "the model returned an error"), "service_error"),
        (Fail(403, "AccessDeniedException", "not authorized to invoke"), "access_denied"),
    ],
)
def test_service_errors_are_typed(fake_bedrock, fail, reason) -> None:
    fake_bedrock.script(fail, fail)
    with pytest.raises(ClientError) as caught:
        _model().invoke("hi")
    assert classify(caught.value) == reason


def test_a_stalled_model_ends_inside_the_budget(fake_bedrock) -> None:
    budget = 4.0
    fake_bedrock.script(Stall(60), Stall(60))
    model = _model(budget=budget)  # building the client is not part of the call
    started = time.monotonic()
    with pytest.raises(ReadTimeoutError) as caught:
        model.invoke("hi")
    elapsed = time.monotonic() - started
    assert classify(caught.value) == "timeout" and elapsed < 30  # cut by the read timeout, not the 60 s stall
    config = bounded_config(budget)
    assert worst_case_s(config.connect_timeout, config.read_timeout, config.retries["total_max_attempts"]) <= budget


def test_a_malformed_reply_is_an_error_not_an_answer(fake_bedrock) -> None:
    fake_bedrock.script(Raw(b'{"output": {"message": '), Raw(b'{"output": {"message": '))
    with pytest.raises(Exception) as caught:
        _model().invoke("hi")
    assert classify(caught.value) in ("malformed_reply", "other", "service_error")
    fake_bedrock.script(tool("Answer", {"flight_number": 123}))  # wrong shape for the schema
    with pytest.raises(Exception) as caught:
        _model().with_structured_output(Answer).invoke("which flight?")
    assert classify(caught.value) == "malformed_reply"


def test_an_oversized_reply_arrives_whole_for_the_caller_to_bound(fake_bedrock) -> None:
    fake_bedrock.script(text("x" * 2_000_000))
    assert len(_model().invoke("hi").content) == 2_000_000  # the transport does not cut: callers must
