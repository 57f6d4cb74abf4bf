"""The assistant's two kinds of configuration.

Behaviour (how it thinks) is a JSON file validated by ``AssistantBehaviour``: models and temperatures per
role, prompt files (markdown beside this module), feature flags, retrieval top_k and threshold. Default
``assistant.json`` beside this module; SKYMARSHAL_ASSISTANT_CONFIG names another file.

Infrastructure (where data goes) is the environment, read by ``AssistantSettings.from_env``:
SKYMARSHAL_ASSISTANT_ENABLED (mounting flag for the integrator), SKYMARSHAL_ASSISTANT_RULES (rules JSON),
SKYMARSHAL_ASSISTANT_CHECKPOINTER=memory|sqlite|none and SKYMARSHAL_ASSISTANT_SQLITE_PATH.

Chat models resolve in this order: the model passed in by the caller, then the behaviour config's model for
the role, with SKYMARSHAL_ASSISTANT_<ROLE>_MODEL overriding its id; with SKYMARSHAL_LLM_PROVIDER=offline (the
project default, see ``skymarshal.llm.provider``) no model is used and the deterministic planner and template
formatter run instead. A configured provider with no model id for a role is a ``AssistantConfigError``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..llm.profiles import ModelConfigError, resolve
from ..llm.provider import GEOGRAPHY_ENV, aws_region, bounded_config, provider_name
from ..llm.provider import load_behaviour as llm_behaviour

HERE = Path(__file__).parent
Role = Literal["planner", "formatter", "comparison_formatter"]
CheckpointerProvider = Literal["memory", "sqlite", "none"]
ASSISTANT_CALL_BUDGET_S = 60.0  # one planner or formatter call, retries included; the console waits on it


class AssistantConfigError(ValueError):
    """Configuration that cannot work; the message names the setting and how to fix it."""


class RoleModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model_id: str | None = None
    temperature: float = Field(0.0, ge=0, le=1)
    max_tokens: int = Field(1000, gt=0)
    prompt: str


class Features(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    query_reformulation: bool = True
    reranking: bool = True
    next_query_prediction: bool = True


class Retrieval(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    top_k: int = Field(4, ge=1, le=20)
    similarity_threshold: float = Field(0.12, ge=0, le=1)  # TF-IDF cosine below this is "not relevant"
    compare_difference_threshold: float = Field(0.35, ge=0, le=1)  # cosine below this: the answers differ


class AirportDefaults(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    default_corridor_nm: float = Field(150, gt=0)
    default_radius_nm: float = Field(100, gt=0)
    max_results: int = Field(60, ge=1, le=500)


class AssistantBehaviour(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    planner: RoleModel
    formatter: RoleModel
    comparison_formatter: RoleModel
    features: Features = Features()
    retrieval: Retrieval = Retrieval()
    airports: AirportDefaults = AirportDefaults()
    max_history_messages: int = Field(6, ge=0)

    def role(self, role: Role) -> RoleModel:
        return getattr(self, role)


class AssistantSettings(BaseModel):
    model_config = ConfigDict(frozen=True)

    enabled: bool = True
    rules_path: Path | None = None
    checkpointer: CheckpointerProvider = "memory"
    sqlite_path: Path = Path(".skymarshal/assistant-threads.sqlite")

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> AssistantSettings:
        values: dict[str, Any] = {}
        if "SKYMARSHAL_ASSISTANT_ENABLED" in env:
            values["enabled"] = env["SKYMARSHAL_ASSISTANT_ENABLED"].strip().lower() not in ("0", "false", "no", "off")
        if env.get("SKYMARSHAL_ASSISTANT_RULES"):
            values["rules_path"] = env["SKYMARSHAL_ASSISTANT_RULES"]
        if env.get("SKYMARSHAL_ASSISTANT_CHECKPOINTER"):
            values["checkpointer"] = env["SKYMARSHAL_ASSISTANT_CHECKPOINTER"].strip().lower()
        if env.get("SKYMARSHAL_ASSISTANT_SQLITE_PATH"):
            values["sqlite_path"] = env["SKYMARSHAL_ASSISTANT_SQLITE_PATH"]
        try:
            return cls.model_validate(values)
        except ValidationError as exc:
            error = exc.errors()[0]
            raise AssistantConfigError(
                f"SKYMARSHAL_ASSISTANT_{str(error['loc'][0]).upper()}: {error['msg']} "
                "(checkpointer: memory, sqlite or none)"
            ) from None


def load_behaviour(path: str | None = None) -> AssistantBehaviour:
    """The behaviour file named by ``path``, else SKYMARSHAL_ASSISTANT_CONFIG, else assistant.json beside this."""
    return _load_behaviour(str(path or os.environ.get("SKYMARSHAL_ASSISTANT_CONFIG") or HERE / "assistant.json"))


@lru_cache(maxsize=8)
def _load_behaviour(name: str) -> AssistantBehaviour:
    file = Path(name)
    try:
        return AssistantBehaviour.model_validate(json.loads(file.read_text(encoding="utf-8")))
    except OSError as exc:
        raise AssistantConfigError(f"cannot read assistant config {file}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise AssistantConfigError(f"assistant config {file} is not JSON: {exc}") from None
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise AssistantConfigError(f"assistant config {file}: {where}: {error['msg']}") from None


def prompt_text(name: str) -> str:
    return (HERE / "prompts" / name).read_text(encoding="utf-8")


def resolve_chat_model(
    role: Role, behaviour: AssistantBehaviour, passed: Any = None, env: Mapping[str, str] = os.environ
):
    """The chat model for a role, or None for offline mode (see the module docstring for the order)."""
    if passed is not None:
        return passed
    provider = provider_name(env)
    if provider == "offline":
        return None
    settings = behaviour.role(role)
    explicit = env.get(f"SKYMARSHAL_ASSISTANT_{role.upper()}_MODEL", "").strip()
    if not (explicit or settings.model_id):
        raise AssistantConfigError(
            f"no model for the assistant's {role}: set {role}.model_id in the assistant "
            f"config or SKYMARSHAL_ASSISTANT_{role.upper()}_MODEL, or use "
            "SKYMARSHAL_LLM_PROVIDER=offline"
        )
    # The same inference-profile rules as the workflow's models (llm/profiles.py): an explicit id as written,
    # the config's moved to the chosen geography; a bare foundation-model id is refused here, on one line.
    region = aws_region(env)
    geography = env.get(GEOGRAPHY_ENV, "").strip().lower() or llm_behaviour().bedrock.geography
    try:
        model_id = (
            resolve(explicit, region=region, pinned=True, where=f"SKYMARSHAL_ASSISTANT_{role.upper()}_MODEL")
            if explicit
            else resolve(
                settings.model_id or "", region=region, geography=geography, where=f"assistant config {role}.model_id"
            )
        )
    except ModelConfigError as exc:
        raise AssistantConfigError(str(exc)) from None
    from langchain_aws import ChatBedrockConverse

    try:
        # `model` is the alias of the field model_id; pydantic's plugin types __init__ by field name only
        return ChatBedrockConverse(
            model=model_id,  # type: ignore[call-arg]
            region_name=region or None,
            temperature=settings.temperature,
            max_tokens=settings.max_tokens,
            config=bounded_config(ASSISTANT_CALL_BUDGET_S),
        )
    except ValueError as exc:  # e.g. no AWS credentials: pydantic's multi-line message, cut to its point
        reason = next(
            (
                line.strip()
                for line in str(exc).splitlines()
                if "error" in line.lower() and "validation error" not in line
            ),
            str(exc).splitlines()[0],
        )
        raise AssistantConfigError(f"cannot create the {role} model {model_id}: {reason}") from None
