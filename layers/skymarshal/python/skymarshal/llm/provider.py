"""Which chat model an agent uses: `offline` (no LLM at all, the default) or `bedrock`.

SKYMARSHAL_LLM_PROVIDER=offline|bedrock; model ids, temperatures and prompt files per role come from
behaviour.json beside this module (SKYMARSHAL_BEHAVIOUR_FILE overrides the path). The choice is logged once.
"""

from __future__ import annotations

import json
import logging
import os
from functools import lru_cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict

log = logging.getLogger("skymarshal.llm")
HERE = Path(__file__).parent
PROVIDERS = ("offline", "bedrock")


class RoleConfig(BaseModel):
    model_config = ConfigDict(frozen=True)

    model_id: str
    temperature: float = 0.0
    max_tokens: int = 1000
    prompt: str


class Behaviour(BaseModel):
    model_config = ConfigDict(frozen=True)

    agents: dict[str, RoleConfig]
    arbitrator: RoleConfig
    max_prompt_chars: int = 4000

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


@lru_cache(maxsize=16)
def chat_model(role: str, agent: str | None = None):
    """The configured chat model for a role ('agent' or 'arbitrator'), or None offline."""
    name = provider_name()
    if name == "offline":
        log.info("LLM provider: offline (recommendations rendered from the rule findings)")
        return None
    behaviour = load_behaviour()
    config = behaviour.arbitrator if role == "arbitrator" else behaviour.for_agent(agent or "default")
    from langchain_aws import ChatBedrockConverse

    log.info("LLM provider: bedrock %s for %s", config.model_id, agent or role)
    return ChatBedrockConverse(model=config.model_id, temperature=config.temperature, max_tokens=config.max_tokens)
