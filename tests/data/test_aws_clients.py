"""One botocore retry configuration for every client the library builds (data/aws.py, issue 48 item 2): the
standard mode by default, the environment's mode and attempts when set, a bad setting refused in one line, and
the clients the steps, the local account and the artifact store build all carrying it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.data import aws
from skymarshal.data.access import DataHandle
from skymarshal.local.account import LocalAccount


def test_the_default_is_botocores_standard_mode_with_five_attempts(monkeypatch):
    monkeypatch.delenv(aws.RETRY_MODE_ENV, raising=False)
    monkeypatch.delenv(aws.MAX_ATTEMPTS_ENV, raising=False)
    assert aws.retries() == {"mode": "standard", "total_max_attempts": 5}


@given(mode=st.sampled_from(aws.MODES), attempts=st.integers(min_value=1, max_value=50))
def test_the_environment_sets_mode_and_attempts(mode, attempts):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(aws.RETRY_MODE_ENV, mode)
        mp.setenv(aws.MAX_ATTEMPTS_ENV, str(attempts))
        assert aws.config().retries == {"mode": mode, "total_max_attempts": attempts}


@given(
    raw=st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=12).filter(
        lambda s: not s.strip().lstrip("+-").isdigit() or int(s) < 1
    )
)
def test_a_bad_attempt_count_is_one_clear_line(raw):
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(aws.MAX_ATTEMPTS_ENV, raw)
        mp.delenv(aws.RETRY_MODE_ENV, raising=False)
        with pytest.raises(ValueError, match=aws.MAX_ATTEMPTS_ENV) as refused:
            aws.retries()
        assert "\n" not in str(refused.value)


def test_an_unknown_mode_is_refused_naming_the_choices(monkeypatch):
    monkeypatch.setenv(aws.RETRY_MODE_ENV, "legacy")
    with pytest.raises(ValueError, match="one of standard, adaptive"):
        aws.retries()


def test_the_clients_the_library_builds_carry_the_configuration(monkeypatch):
    monkeypatch.setenv(aws.RETRY_MODE_ENV, "adaptive")
    monkeypatch.setenv(aws.MAX_ATTEMPTS_ENV, "7")
    for name, value in {
        "AWS_ACCESS_KEY_ID": "x",
        "AWS_SECRET_ACCESS_KEY": "x",
        "AWS_EC2_METADATA_DISABLED": "true",
    }.items():
        monkeypatch.setenv(name, value)  # nothing looked up: the clients are built, never called
    expected = {"mode": "adaptive", "total_max_attempts": 7}
    account = LocalAccount(endpoint_url="http://127.0.0.1:9")  # built, never called
    for client in (account.client("s3"), account.client("stepfunctions")):
        assert client.meta.config.retries == expected
    assert account.resource().meta.client.meta.config.retries == expected
    handle = DataHandle(endpoint_url="http://127.0.0.1:9", region_name="eu-west-1")  # the steps' data handle
    assert handle.resource.meta.client.meta.config.retries == expected
    # a caller's own settings are merged over it, the retries kept unless it sets its own
    from botocore.config import Config

    tuned = aws.client("s3", config=Config(read_timeout=3), endpoint_url="http://127.0.0.1:9")
    assert tuned.meta.config.read_timeout == 3 and tuned.meta.config.retries == expected
