"""Model ids as Bedrock serves them (inference profiles by region) and call bounds that fit a deadline.
Pure: no AWS, no airline."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skymarshal.llm import profiles
from skymarshal.llm.profiles import ModelConfigError, resolve
from skymarshal.llm.provider import BedrockSettings, call_bounds, check_models, model_id_for, worst_case_s

SONNET = "anthropic.claude-sonnet-4-5-20250929-v1:0"


@pytest.mark.parametrize(
    ("region", "geography", "expected"),
    [
        ("us-east-1", "regional", f"us.{SONNET}"),
        ("eu-west-1", "regional", f"eu.{SONNET}"),
        ("ap-southeast-2", "regional", f"apac.{SONNET}"),
        ("eu-central-1", "global", f"global.{SONNET}"),
        ("eu-west-1", "configured", f"global.{SONNET}"),
        ("us-west-2", "us", f"us.{SONNET}"),
    ],
)
def test_the_profile_follows_the_region_or_the_chosen_geography(region, geography, expected) -> None:
    assert resolve(f"global.{SONNET}", region=region, geography=geography) == expected


def test_a_bare_foundation_model_id_is_refused_on_one_line() -> None:
    with pytest.raises(ModelConfigError, match="bare foundation-model id") as caught:
        resolve(SONNET, region="us-east-1", geography="regional")
    assert "\n" not in str(caught.value) and f"global.{SONNET}" in str(caught.value)


@pytest.mark.parametrize(
    ("model_id", "region", "message"),
    [
        (f"us.{SONNET}", "eu-west-1", "can only be called from a us region"),
        (f"apac.{SONNET}", "us-east-1", "can only be called from a apac region"),
        ("claude", "us-east-1", "not an inference profile id"),
        (f"mars.{SONNET}", "us-east-1", "not an inference profile id"),
    ],
)
def test_ids_that_cannot_be_called_from_the_region_are_refused(model_id, region, message) -> None:
    with pytest.raises(ModelConfigError, match=message):
        resolve(model_id, region=region, pinned=True)


def test_regional_needs_a_region_with_a_geography() -> None:
    with pytest.raises(ModelConfigError, match="SKYMARSHAL_BEDROCK_GEOGRAPHY=global"):
        resolve(f"global.{SONNET}", region="sa-east-1", geography="regional")
    assert resolve(f"global.{SONNET}", region="sa-east-1", geography="global") == f"global.{SONNET}"


def test_every_mapped_region_has_a_geography_with_destinations() -> None:
    for region in profiles.BEDROCK_REGIONS:
        assert profiles.DESTINATION_REGIONS[profiles.region_geography(region)]


def test_the_workflow_models_are_checked_at_start_and_overrides_are_pinned() -> None:
    env = {"SKYMARSHAL_LLM_PROVIDER": "bedrock", "AWS_REGION": "eu-west-1"}
    assert all(m.startswith("eu.anthropic.") for m in check_models(env))
    assert check_models({"SKYMARSHAL_LLM_PROVIDER": "offline"}) == []
    with pytest.raises(ModelConfigError, match="set AWS_REGION"):
        check_models({"SKYMARSHAL_LLM_PROVIDER": "bedrock"})
    pinned = {**env, "SKYMARSHAL_ARBITRATOR_MODEL_ID": f"global.{SONNET}"}
    assert model_id_for("arbitrator", env=pinned) == f"global.{SONNET}"
    with pytest.raises(ModelConfigError, match="SKYMARSHAL_AGENT_MODEL_ID 'anthropic"):
        check_models({**env, "SKYMARSHAL_AGENT_MODEL_ID": SONNET})


@given(
    budget=st.floats(min_value=2.0, max_value=900.0),
    attempts=st.integers(1, 5),
    connect=st.floats(min_value=0.5, max_value=30.0),
)
def test_a_bounded_call_ends_inside_its_budget(budget, attempts, connect) -> None:
    """Every attempt connecting and reading to its timeout, plus botocore's longest backoff, fits the budget
    (the read timeout's one-second floor aside, which only very small budgets reach)."""
    c, r, n = call_bounds(budget, BedrockSettings(max_attempts=attempts, connect_timeout_s=connect))
    assert 1 <= n <= attempts and c > 0 and r >= 1.0
    assert worst_case_s(c, r, n) <= budget + 1e-6 or (r == 1.0 and n == 1)


def test_the_agent_default_budget_keeps_one_retry_and_a_useful_read_timeout() -> None:
    connect, read, attempts = call_bounds(30.0)
    assert attempts == 2 and read >= 8 and worst_case_s(connect, read, attempts) <= 30.0


@pytest.mark.parametrize(
    ("choice", "profile", "models"),
    [
        (
            "global",
            f"global.{SONNET}",
            {f"arn:aws:bedrock:*::foundation-model/{SONNET}", f"arn:aws:bedrock:::foundation-model/{SONNET}"},
        ),
        ("eu", f"eu.{SONNET}", {f"arn:aws:bedrock:eu-*::foundation-model/{SONNET}"}),
        ("configured", f"us.{SONNET}", {f"arn:aws:bedrock:us-*::foundation-model/{SONNET}"}),
    ],
)
def test_iam_names_the_profile_and_its_model_where_the_profile_routes(choice, profile, models) -> None:
    from infra.bedrock import grant_for

    grant = grant_for([f"us.{SONNET}"], choice, partition="aws", region="eu-west-1", account="111122223333")
    assert grant.profile_arns == [f"arn:aws:bedrock:eu-west-1:111122223333:inference-profile/{profile}"]
    assert set(grant.model_arns) == models and grant.geography == choice
