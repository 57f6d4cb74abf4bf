"""Which chat model an agent uses: `offline` (no LLM at all, the default) or `bedrock`.

SKYMARSHAL_LLM_PROVIDER=offline|bedrock; model ids, temperatures and prompt files per role come from
behaviour.json beside this module (SKYMARSHAL_BEHAVIOUR_FILE overrides the path). The choice is logged once.

On Bedrock every model id is an inference profile chosen for the calling region (llm/profiles.py), checked
before the first call (`check_models`), and every call is bounded (`bounded_config`): a connect and a read
timeout and a number of attempts sized so that the call, retries and backoff included, ends inside its
caller's deadline (the agent's, or the arbitrator's model budget).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from . import profiles

log = logging.getLogger("skymarshal.llm")
HERE = Path(__file__).parent
PROVIDERS = ("offline", "bedrock")
GEOGRAPHY_ENV = "SKYMARSHAL_BEDROCK_GEOGRAPHY"
MODEL_ENV = {"agent": "SKYMARSHAL_AGENT_MODEL_ID", "arbitrator": "SKYMARSHAL_ARBITRATOR_MODEL_ID"}
AGENT_DEADLINE_ENV = "SKYMARSHAL_AGENT_DEADLINE_SECONDS"
ARBITRATOR_DEADLINE_ENV = "SKYMARSHAL_ARBITRATOR_DEADLINE_SECONDS"
DEFAULT_AGENT_DEADLINE_S = 30.0
DEFAULT_ARBITRATOR_DEADLINE_S = 120.0  # below the Arbitrate Lambda's 180 s: room to save and record the decision
# botocore's standard retry mode waits at most min(2 ** (attempt - 1), 20) s before a retry, and up to 5 s
# more when the reply carries x-amz-retry-after (botocore/retries/standard.py ExponentialBackoff).
RETRY_AFTER_EXTRA_S = 5.0


class RoleConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    model_id: str  # an inference profile id; its geography may be re-chosen by bedrock.geography
    temperature: float = 0.0
    max_tokens: int = 1000
    prompt: str


class BedrockSettings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    geography: str = "regional"  # see llm/profiles.py: regional | configured | global | us | eu | apac
    max_attempts: int = Field(2, ge=1, le=5)  # a throttled or failed call is tried once more, within the deadline
    connect_timeout_s: float = Field(3.0, gt=0, le=30)


class Limits(BaseModel):
    """What a model's text may be: longer is cut at a sentence; see arbitration/text_checks.py."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    recommendation_chars: int = Field(600, ge=50)
    reasoning_chars: int = Field(2000, ge=100)
    justification_chars: int = Field(2500, ge=100)
    # The arbitrator model may reorder the valid plans only among those scoring within this much of the best
    # (scores are 0..1); beyond it the rules' order stands and the attempt is recorded.
    reorder_margin: float = Field(0.05, ge=0, le=1)


class Behaviour(BaseModel):
    model_config = ConfigDict(frozen=True)

    agents: dict[str, RoleConfig]
    arbitrator: RoleConfig
    max_prompt_chars: int = 4000
    bedrock: BedrockSettings = BedrockSettings()
    limits: Limits = Limits()

    def for_agent(self, agent: str) -> RoleConfig:
        return self.agents.get(agent, self.agents["default"])


@lru_cache(maxsize=4)
def load_behaviour(path: str | None = None) -> Behaviour:
    file = Path(path or os.environ.get("SKYMARSHAL_BEHAVIOUR_FILE") or HERE / "behaviour.json")
    return Behaviour.model_validate(json.loads(file.read_text()))


def prompt_text(name: str) -> str:
    return (HERE / "prompts" / name).read_text(encoding="utf-8")


def provider_name(env=os.environ) -> str:
    name = env.get("SKYMARSHAL_LLM_PROVIDER", "offline").strip().lower()
    if name not in PROVIDERS:
        raise ValueError(f"SKYMARSHAL_LLM_PROVIDER={name!r}: expected one of {', '.join(PROVIDERS)}")
    return name


def aws_region(env: Mapping[str, str] = os.environ) -> str:
    return (env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "").strip()


def deadline_s(role: str, env: Mapping[str, str] = os.environ) -> float:
    """The deadline a role's model calls must end within (read when a model is built)."""
    name, default = (
        (ARBITRATOR_DEADLINE_ENV, DEFAULT_ARBITRATOR_DEADLINE_S)
        if role == "arbitrator"
        else (AGENT_DEADLINE_ENV, DEFAULT_AGENT_DEADLINE_S)
    )
    try:
        value = float(env.get(name) or default)
    except ValueError:
        raise profiles.ModelConfigError(f"{name}={env.get(name)!r} is not a number of seconds") from None
    if value <= 0:
        raise profiles.ModelConfigError(f"{name}={value}: must be positive")
    return value


def worst_case_s(connect: float, read: float, attempts: int) -> float:
    """The longest a call can take: every attempt connects and waits its full read timeout, plus backoff."""
    backoff = sum(min(2.0 ** (k - 1), 20.0) + RETRY_AFTER_EXTRA_S for k in range(1, attempts))
    return attempts * (connect + read) + backoff


def call_bounds(budget_s: float, settings: BedrockSettings = BedrockSettings()) -> tuple[float, float, int]:
    """(connect timeout, read timeout, attempts) whose worst case fits `budget_s`. A budget too small for
    the configured attempts drops retries first; the read timeout never goes below one second."""
    attempts = settings.max_attempts
    while attempts > 1 and worst_case_s(min(settings.connect_timeout_s, budget_s / 10), 1.0, attempts) > budget_s:
        attempts -= 1
    connect = min(settings.connect_timeout_s, budget_s / 10)
    spare = budget_s - worst_case_s(connect, 0.0, attempts)
    read = max(1.0, spare / attempts)
    return connect, read, attempts


def bounded_config(budget_s: float, settings: BedrockSettings = BedrockSettings()):
    from botocore.config import Config

    connect, read, attempts = call_bounds(budget_s, settings)
    return Config(
        connect_timeout=connect, read_timeout=read, retries={"total_max_attempts": attempts, "mode": "standard"}
    )


def model_id_for(
    role: str, agent: str | None = None, env: Mapping[str, str] = os.environ, behaviour: Behaviour | None = None
) -> str:
    """The inference profile a role invokes from this region: SKYMARSHAL_<ROLE>_MODEL_ID as written, else the
    behaviour file's id moved to the chosen geography. Raises ModelConfigError (one line)."""
    behaviour = behaviour or load_behaviour()
    region = aws_region(env)
    explicit = env.get(MODEL_ENV["arbitrator" if role == "arbitrator" else "agent"], "").strip()
    if explicit:
        return profiles.resolve(
            explicit, region=region, pinned=True, where=MODEL_ENV["arbitrator" if role == "arbitrator" else "agent"]
        )
    config = behaviour.arbitrator if role == "arbitrator" else behaviour.for_agent(agent or "default")
    geography = env.get(GEOGRAPHY_ENV, "").strip().lower() or behaviour.bedrock.geography
    where = "arbitrator.model_id" if role == "arbitrator" else f"agents.{agent or 'default'}.model_id"
    return profiles.resolve(config.model_id, region=region, geography=geography, where=f"behaviour.json {where}")


def check_models(env: Mapping[str, str] = os.environ) -> list[str]:
    """Every model the workflow would invoke, resolved now, so a wrong id is refused at start rather than
    at the first call (where it would only show as a fallback). Offline: nothing to check."""
    if provider_name(env) == "offline":
        return []
    if not aws_region(env):
        raise profiles.ModelConfigError("SKYMARSHAL_LLM_PROVIDER=bedrock needs a region: set AWS_REGION")
    behaviour = load_behaviour()
    ids = [model_id_for("agent", agent, env, behaviour) for agent in behaviour.agents]
    return sorted(set(ids) | {model_id_for("arbitrator", None, env, behaviour)})


@lru_cache(maxsize=16)
def chat_model(role: str, agent: str | None = None):
    """The configured chat model for a role ('agent' or 'arbitrator'), or None offline."""
    name = provider_name()
    if name == "offline":
        log.info("LLM provider: offline (recommendations rendered from the rule findings)")
        return None
    behaviour = load_behaviour()
    config = behaviour.arbitrator if role == "arbitrator" else behaviour.for_agent(agent or "default")
    model_id = model_id_for(role, agent, behaviour=behaviour)
    budget = deadline_s(role)
    from langchain_aws import ChatBedrockConverse

    connect, read, attempts = call_bounds(budget, behaviour.bedrock)
    log.info(
        "LLM provider: bedrock %s for %s (connect %.1f s, read %.1f s, %d attempt(s) in all within %.0f s)",
        model_id,
        agent or role,
        connect,
        read,
        attempts,
        budget,
    )
    # No endpoint_url: botocore reads AWS_ENDPOINT_URL_BEDROCK_RUNTIME itself (the local fake in tests).
    return ChatBedrockConverse(
        model_id=model_id,
        region_name=aws_region() or None,
        temperature=config.temperature,
        max_tokens=config.max_tokens,
        config=bounded_config(budget, behaviour.bedrock),
    )
