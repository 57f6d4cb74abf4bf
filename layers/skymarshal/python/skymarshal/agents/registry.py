"""The seven agents: which analysis each runs, and whether it is a safety agent."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..analysis.business import analyse_cargo, analyse_finance, analyse_guest
from ..analysis.crew import analyse_crew
from ..analysis.maintenance import analyse_maintenance
from ..analysis.regulatory import analyse_regulatory
from ..data.schema import AGENTS, SAFETY_AGENTS
from ..network.optimizer_proposal import analyse_network_with_optimizer


@dataclass(frozen=True)
class AgentSpec:
    name: str
    safety: bool
    analyse: Callable
    takes_delay: bool  # business analyses price a delay; in revision they take the collation's


AGENT_SPECS: dict[str, AgentSpec] = {
    spec.name: spec
    for spec in (
        AgentSpec("crew_compliance", True, analyse_crew, True),
        AgentSpec("maintenance", True, analyse_maintenance, False),
        AgentSpec("regulatory", True, analyse_regulatory, False),
        AgentSpec("network", False, analyse_network_with_optimizer, True),  # optimizer when the network is touched
        AgentSpec("guest_experience", False, analyse_guest, True),
        AgentSpec("cargo", False, analyse_cargo, True),
        AgentSpec("finance", False, analyse_finance, True),
    )
}
assert tuple(AGENT_SPECS) == AGENTS and {n for n, s in AGENT_SPECS.items() if s.safety} == set(SAFETY_AGENTS)
