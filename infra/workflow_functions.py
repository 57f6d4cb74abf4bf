"""The workflow's Lambda functions and their least-privilege grants (the shared shape is infra/functions.py).

Agents get exactly their row of the access matrix (data_stack.grant_agent_read); the steps get what their
code reads and writes, named table by table; the steps that append to the audit trail sign its head.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from aws_cdk import RemovalPolicy
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

from skymarshal.data.schema import (
    AGENTS,
    AIRCRAFT_AVAILABILITY,
    AIRPORTS,
    BAGGAGE,
    BOOKINGS,
    CARGO_FLIGHT_ASSIGNMENTS,
    CARGO_SHIPMENTS,
    CHECKPOINTS,
    CREW_MEMBERS,
    CREW_ROSTER,
    DISRUPTION_HISTORY,
    FLIGHTS,
    MAINTENANCE_ROSTER,
    MAINTENANCE_STAFF,
    MAINTENANCE_WORK_ORDERS,
    PASSENGERS,
    WEATHER,
)
from skymarshal.llm.provider import AGENT_DEADLINE_ENV, ARBITRATOR_DEADLINE_ENV
from skymarshal.workflow.deployment import AUDIT_KEY_ENV

from .config import REPO_ROOT, AppConfig
from .data_stack import DataStack
from .functions import FUNCTIONS_DIR, FunctionsBase

BEHAVIOUR = REPO_ROOT / "layers/skymarshal/python/skymarshal/llm/behaviour.json"

# What each step reads (GetItem/Query/BatchGetItem) and writes, from its code: Validate resolves the
# flight (or the airport's flights) and the report's what-if (analysis/what_if.py: the tail's work orders, the
# flight's crew, the destination's weather, airport profiles and NOTAMs) plus the Admin's run settings; Arbitrate re-runs the rules over everything the safety agents read plus history; Execute
# changes the operational rows a plan touches (transactions with condition checks); Learn writes history.
# Validate: the flight, its claim, the report's facts; for an airport report also the network planner's scope
# checks (the fleet's days in AircraftAvailability: whether the window runs past the data); and when the cause
# clears (intake/clearance_history.py: past waits of the same cause in DisruptionHistory's type index).
VALIDATE_READS = (
    FLIGHTS,
    CHECKPOINTS,
    AIRPORTS,
    CREW_ROSTER,
    CREW_MEMBERS,
    MAINTENANCE_WORK_ORDERS,
    WEATHER,
    AIRCRAFT_AVAILABILITY,
    DISRUPTION_HISTORY,
)
ARBITRATOR_READS = (
    FLIGHTS,
    BOOKINGS,
    PASSENGERS,
    CREW_MEMBERS,
    CREW_ROSTER,
    MAINTENANCE_WORK_ORDERS,
    MAINTENANCE_STAFF,
    MAINTENANCE_ROSTER,
    AIRCRAFT_AVAILABILITY,
    CARGO_SHIPMENTS,
    CARGO_FLIGHT_ASSIGNMENTS,
    BAGGAGE,
    WEATHER,
    AIRPORTS,
    DISRUPTION_HISTORY,
)
# Collate asks the debate rule after the revision and each debate round, which validates every agent's plans as
# Arbitrate does (arbitration/debate/assess.py): the same reads, less the history it ranks with.
COLLATE_READS = tuple(t for t in ARBITRATOR_READS if t != DISRUPTION_HISTORY)
EXECUTE_WRITES = (FLIGHTS, BOOKINGS, CREW_ROSTER, AIRCRAFT_AVAILABILITY)
# Internal deadlines below each Lambda's timeout (agents 90 s, Arbitrate 180 s): a model call is bounded to
# end inside them (llm/provider.py), and what is left covers saving the result. The agent handler also
# keeps 5 s of the remaining time.
AGENT_DEADLINE_S = 75
ARBITRATOR_DEADLINE_S = 150
VALIDATE_MODEL_DEADLINE_S = 40  # Validate's timeout is 60 s


def model_ids() -> list[str]:
    """Every model id in behaviour.json (agents and arbitrator)."""
    behaviour = json.loads(BEHAVIOUR.read_text())
    return sorted({role["model_id"] for role in behaviour["agents"].values()} | {behaviour["arbitrator"]["model_id"]})


@dataclass
class WorkflowFunctions:
    agents: dict[str, lambda_.Function]
    validate: lambda_.Function
    collate: lambda_.Function
    arbitrate: lambda_.Function
    request_approval: lambda_.Function
    execute: lambda_.Function
    learn: lambda_.Function
    trigger: lambda_.Function


class WorkflowFunctionsConstruct(FunctionsBase):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: AppConfig,
        data: DataStack,
        knowledge_base_id: str | None = None,
    ) -> None:
        super().__init__(scope, construct_id, config=config, data=data)
        # Signs the head of each disruption's audit chain; asymmetric, so verifying needs no secret.
        self.audit_key = kms.Key(
            self,
            "AuditSigningKey",
            key_spec=kms.KeySpec.ECC_NIST_P256,
            key_usage=kms.KeyUsage.SIGN_VERIFY,
            alias=f"alias/SkyMarshal-{config.stage}-audit",
            description="SkyMarshal: signs the head of each disruption's audit chain",
            removal_policy=RemovalPolicy.RETAIN,
        )
        self.environment[AUDIT_KEY_ENV] = self.audit_key.key_arn
        agents = {
            agent: self.function(
                f"Agent-{agent}",
                FUNCTIONS_DIR / agent,
                "handler.handler",
                f"skymarshal-{agent}",
                timeout_s=90,
                memory=1024,
                extra_env={"SKYMARSHAL_AGENT": agent, AGENT_DEADLINE_ENV: str(AGENT_DEADLINE_S)},
            )
            for agent in AGENTS
        }
        for agent, fn in agents.items():
            data.grant_agent_read(agent, fn)
            self._checkpoints(fn)
            self._bedrock(fn)
        steps = FUNCTIONS_DIR / "workflow"
        validate = self.function(
            "Validate",
            steps,
            "handler.validate",
            "skymarshal-validate",
            timeout_s=60,
            # the model completing the report's reading ends by then (llm/provider.py bounds each call)
            extra_env={
                "SKYMARSHAL_APPROVAL_TIMEOUT_SECONDS": str(config.approval_timeout_minutes * 60),
                AGENT_DEADLINE_ENV: str(VALIDATE_MODEL_DEADLINE_S),
            },
        )
        collate = self.function("Collate", steps, "handler.collate", "skymarshal-collate")
        arbitrate = self.function(
            "Arbitrate",
            steps,
            "handler.arbitrate",
            "skymarshal-arbitrator",
            timeout_s=180,
            memory=2048,
            extra_env={
                "SKYMARSHAL_KNOWLEDGE_BASE_ID": knowledge_base_id or "",
                ARBITRATOR_DEADLINE_ENV: str(ARBITRATOR_DEADLINE_S),
            },
        )
        request_approval = self.function("RequestApproval", steps, "handler.request_approval", "skymarshal-approval")
        execute = self.function("Execute", steps, "handler.execute", "skymarshal-execution", timeout_s=120)
        learn = self.function("Learn", steps, "handler.learn", "skymarshal-learning", timeout_s=60)
        trigger = self.function("Trigger", steps, "handler.trigger", "skymarshal-trigger")

        self._read(validate, VALIDATE_READS)
        self._bedrock(validate)  # the model that completes the parser's reading (intake/report_llm.py)
        self._artifacts(validate, collate, arbitrate, execute, learn)
        for fn in agents.values():
            self._artifacts(fn)
        self._read(arbitrate, ARBITRATOR_READS)
        self._read(collate, COLLATE_READS)
        self._bedrock(arbitrate)
        for fn in (validate, arbitrate, request_approval, execute, learn):  # validate: the flight's claim
            self._checkpoints(fn)
        self._read(execute, EXECUTE_WRITES)
        self._write(execute, EXECUTE_WRITES)
        self._read(learn, (FLIGHTS, DISRUPTION_HISTORY))
        self._write(learn, (DISRUPTION_HISTORY,))
        self.grant_anchor_put(learn)  # the finished run's audit head, outside the chain (Object Lock)
        for fn in (validate, collate, arbitrate, request_approval, execute, learn):
            self.grant_audit(fn, self.audit_key, "kms:Sign")
        self._acknowledge_findings()
        self.functions = WorkflowFunctions(
            agents=agents,
            validate=validate,
            collate=collate,
            arbitrate=arbitrate,
            request_approval=request_approval,
            execute=execute,
            learn=learn,
            trigger=trigger,
        )

    def _bedrock(self, fn: lambda_.Function) -> None:
        self.grant_bedrock(fn, model_ids(), "behaviour.json")
