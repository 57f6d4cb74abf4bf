"""The workflow's Lambda functions and their least-privilege grants.

One runtime and architecture for all (Python 3.12, x86_64, matching the deps layer); the library and its
dependencies as two layers; X-Ray active; Powertools service, log level and metrics namespace from the
environment. Agents get exactly their row of the access matrix (data_stack.grant_agent_read); the steps
get what their code reads and writes, named table by table.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from skymarshal.checkpoint.config import BUCKET_ENV, CHECKPOINTER_ENV, TABLE_PREFIX_ENV
from skymarshal.workflow.audit_trail import KEY_ENV as AUDIT_KEY_ENV
from skymarshal.data.schema import (
    AGENTS, AIRCRAFT_AVAILABILITY, AIRPORTS, AUDIT_TRAIL, BAGGAGE, BOOKINGS, CARGO_FLIGHT_ASSIGNMENTS, CARGO_SHIPMENTS, CHECKPOINTS,
    CREW_MEMBERS, CREW_ROSTER, DISRUPTION_HISTORY, FLIGHTS, MAINTENANCE_ROSTER, MAINTENANCE_STAFF,
    MAINTENANCE_WORK_ORDERS, PASSENGERS, TABLES_BY_NAME, WEATHER,
)

from .config import REPO_ROOT, AppConfig
from .data_stack import AGENT_READ_ACTIONS, DataStack
from .layers import lambda_layers
from .nag import acknowledge, iam5, references

FUNCTIONS_DIR = REPO_ROOT / "functions"
BEHAVIOUR = REPO_ROOT / "layers/skymarshal/python/skymarshal/llm/behaviour.json"
WRITE_ACTIONS = ("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem")
# The Checkpoints table (checkpoints, thread registry, approvals, execution events): Table.grantReadWriteData's
# actions without Scan (every read is a key or GSI lookup; a Scan is a bug) and without the stream actions
# (GetRecords/GetShardIterator act on a stream ARN, which is not granted). Its one GSI is named, not index/*.
CHECKPOINT_ACTIONS = (*AGENT_READ_ACTIONS, "dynamodb:DescribeTable", "dynamodb:BatchWriteItem", *WRITE_ACTIONS)

# What each step reads (GetItem/Query/BatchGetItem) and writes, from its code: Validate resolves the
# flight; Arbitrate re-runs the rules over everything the safety agents read plus history; Execute
# changes the operational rows a plan touches (transactions with condition checks); Learn writes history.
ARBITRATOR_READS = (FLIGHTS, BOOKINGS, PASSENGERS, CREW_MEMBERS, CREW_ROSTER, MAINTENANCE_WORK_ORDERS, MAINTENANCE_STAFF,
                    MAINTENANCE_ROSTER, AIRCRAFT_AVAILABILITY, CARGO_SHIPMENTS, CARGO_FLIGHT_ASSIGNMENTS, BAGGAGE,
                    WEATHER, AIRPORTS, DISRUPTION_HISTORY)
EXECUTE_WRITES = (FLIGHTS, BOOKINGS, CREW_ROSTER, AIRCRAFT_AVAILABILITY)
# The audit trail is append-only: writers put (conditionally) and read; nothing may update or delete.
AUDIT_APPEND_ACTIONS = ("dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:Query")


def model_ids() -> list[str]:
    """Every model id in behaviour.json (agents and arbitrator)."""
    behaviour = json.loads(BEHAVIOUR.read_text())
    return sorted({role["model_id"] for role in behaviour["agents"].values()} | {behaviour["arbitrator"]["model_id"]})


def foundation_model(model_id: str) -> str:
    """The foundation model behind a model id, without a cross-region inference profile's geography prefix."""
    geo, _, rest = model_id.partition(".")
    return rest if geo in ("us", "eu", "apac", "global") else model_id


def bedrock_model_arns(stack: Stack) -> list[str]:
    """Foundation models and cross-region inference profiles of the ids in behaviour.json, nothing else."""
    arns = []
    for model_id in model_ids():
        arns.append(f"arn:{stack.partition}:bedrock:*::foundation-model/{foundation_model(model_id)}")
        arns.append(f"arn:{stack.partition}:bedrock:{stack.region}:{stack.account}:inference-profile/{model_id}")
    return arns


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


class WorkflowFunctionsConstruct(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: AppConfig, data: DataStack,
                 knowledge_base_id: str | None = None) -> None:
        super().__init__(scope, construct_id)
        self.stack = Stack.of(self)
        self.data = data
        # function -> {cdk-nag finding on its role's policy: reason}, acknowledged once all grants are made
        self._findings: dict[lambda_.Function, dict[str, str]] = {}
        deps, library = lambda_layers(self)
        self.layers = [deps, library]
        self.environment = {
            TABLE_PREFIX_ENV: config.table_prefix, BUCKET_ENV: data.bucket.bucket_name, CHECKPOINTER_ENV: "dynamodb",
            "SKYMARSHAL_CHECKPOINT_TTL_DAYS": str(config.checkpoint_expiry_days),
            "SKYMARSHAL_LLM_PROVIDER": config.llm_provider, "POWERTOOLS_LOG_LEVEL": "INFO",
            "POWERTOOLS_METRICS_NAMESPACE": "SkyMarshal", "SKYMARSHAL_STAGE": config.stage,
        }
        self.model_arns = bedrock_model_arns(self.stack)
        # Signs the head of each disruption's audit chain; asymmetric, so verifying needs no secret.
        self.audit_key = kms.Key(self, "AuditSigningKey", key_spec=kms.KeySpec.ECC_NIST_P256,
                                 key_usage=kms.KeyUsage.SIGN_VERIFY, alias=f"alias/SkyMarshal-{config.stage}-audit",
                                 description="SkyMarshal: signs the head of each disruption's audit chain",
                                 removal_policy=RemovalPolicy.RETAIN)
        self.environment[AUDIT_KEY_ENV] = self.audit_key.key_arn
        agents = {agent: self._function(f"Agent-{agent}", FUNCTIONS_DIR / agent, "handler.handler", f"skymarshal-{agent}",
                                        timeout_s=90, memory=1024, extra_env={"SKYMARSHAL_AGENT": agent})
                  for agent in AGENTS}
        for agent, fn in agents.items():
            data.grant_agent_read(agent, fn)
            self._checkpoints(fn)
            self._bedrock(fn)
        steps = FUNCTIONS_DIR / "workflow"
        validate = self._function("Validate", steps, "handler.validate", "skymarshal-validate", extra_env={
            "SKYMARSHAL_APPROVAL_TIMEOUT_SECONDS": str(config.approval_timeout_minutes * 60)})
        collate = self._function("Collate", steps, "handler.collate", "skymarshal-collate")
        arbitrate = self._function("Arbitrate", steps, "handler.arbitrate", "skymarshal-arbitrator", timeout_s=180,
                                   memory=2048, extra_env={"SKYMARSHAL_KNOWLEDGE_BASE_ID": knowledge_base_id or ""})
        request_approval = self._function("RequestApproval", steps, "handler.request_approval", "skymarshal-approval")
        execute = self._function("Execute", steps, "handler.execute", "skymarshal-execution", timeout_s=120)
        learn = self._function("Learn", steps, "handler.learn", "skymarshal-learning", timeout_s=60)
        trigger = self._function("Trigger", steps, "handler.trigger", "skymarshal-trigger")

        self._read(validate, (FLIGHTS,))
        self._artifacts(validate, collate, arbitrate, execute, learn)
        for agent in agents.values():
            self._artifacts(agent)
        self._read(arbitrate, ARBITRATOR_READS)
        self._bedrock(arbitrate)
        for fn in (arbitrate, request_approval, execute, learn):
            self._checkpoints(fn)
        self._read(execute, EXECUTE_WRITES)
        self._write(execute, EXECUTE_WRITES)
        self._read(learn, (FLIGHTS, DISRUPTION_HISTORY))
        self._write(learn, (DISRUPTION_HISTORY,))
        for fn in (validate, collate, arbitrate, request_approval, execute, learn):
            self.grant_audit_append(fn)
        self._acknowledge_findings()
        self.functions = WorkflowFunctions(agents=agents, validate=validate, collate=collate, arbitrate=arbitrate,
                                           request_approval=request_approval, execute=execute, learn=learn,
                                           trigger=trigger)

    def _function(self, construct_id: str, code: Path, handler: str, service: str, *, timeout_s: int = 30,
                  memory: int = 512, extra_env: dict[str, str] | None = None) -> lambda_.Function:
        log_group = logs.LogGroup(self, f"{construct_id}Logs", retention=logs.RetentionDays.THREE_MONTHS,
                                  removal_policy=RemovalPolicy.DESTROY)
        # A role of our own instead of the default one with AWSLambdaBasicExecutionRole (logs:* on every
        # log group, cdk-nag IAM4): the function writes to its own log group only.
        role = iam.Role(self, f"{construct_id}Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
                        description=f"SkyMarshal {service}: its log group, X-Ray, and its grants")
        log_group.grant_write(role)
        fn = lambda_.Function(
            self, construct_id, runtime=lambda_.Runtime.PYTHON_3_12, architecture=lambda_.Architecture.X86_64,
            code=lambda_.Code.from_asset(str(code), exclude=["__pycache__"]), handler=handler, layers=self.layers,
            timeout=Duration.seconds(timeout_s), memory_size=memory, tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group, role=role, description=f"SkyMarshal {service}",
            environment={**self.environment, "POWERTOOLS_SERVICE_NAME": service, **(extra_env or {})})
        acknowledge(fn.node.default_child, "AwsSolutions-L1",  # type: ignore[arg-type]
                    "python3.12 on purpose: the deps layer is pip-installed for cp312 manylinux wheels "
                    "(pydantic-core, orjson), so the runtime moves only together with a rebuilt layer")
        self._finding(fn, "Resource::*", "X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no "
                                         "resource-level permissions; IAM only accepts * for them")
        return fn

    def _table_arns(self, tables) -> list[str]:
        arns = []
        for logical in tables:
            arn = self.data.tables[logical].table_arn
            arns += [arn, *(f"{arn}/index/{index.name}" for index in TABLES_BY_NAME[logical].indexes)]
        return arns

    def _read(self, fn: lambda_.Function, tables) -> None:
        iam.Grant.add_to_principal(grantee=fn, actions=list(AGENT_READ_ACTIONS), resource_arns=self._table_arns(tables))
        self.data.key.grant_decrypt(fn)

    def _write(self, fn: lambda_.Function, tables) -> None:
        arns = [self.data.tables[t].table_arn for t in tables]
        iam.Grant.add_to_principal(grantee=fn, actions=list(WRITE_ACTIONS), resource_arns=arns)
        self._encrypt_decrypt(fn)

    def grant_audit_append(self, fn: lambda_.Function) -> None:
        """Append to (and read) the audit trail, sign its head; no UpdateItem or DeleteItem."""
        iam.Grant.add_to_principal(grantee=fn, actions=list(AUDIT_APPEND_ACTIONS),
                                   resource_arns=[self.data.tables[AUDIT_TRAIL].table_arn])
        self._encrypt_decrypt(fn)
        self.audit_key.grant(fn, "kms:Sign")

    def _checkpoints(self, fn: lambda_.Function) -> None:
        """Checkpoints, thread registry, approvals and execution events all live in the Checkpoints table."""
        iam.Grant.add_to_principal(grantee=fn, actions=list(CHECKPOINT_ACTIONS),
                                   resource_arns=self._table_arns((CHECKPOINTS,)))
        self._encrypt_decrypt(fn)

    def _encrypt_decrypt(self, fn: lambda_.Function) -> None:
        self.data.key.grant_encrypt_decrypt(fn)
        self._key_findings(fn)

    def _key_findings(self, fn: lambda_.Function) -> None:
        key = "the data stack's one customer-managed key (tables and artifacts bucket), no other key"
        self._finding(fn, "Action::kms:GenerateDataKey*", f"Key.grantEncryptDecrypt's action set on {key}: writing "
                                                          "SSE-KMS items and objects needs a data key of it")
        self._finding(fn, "Action::kms:ReEncrypt*", f"Key.grantEncryptDecrypt's action set on {key}: ReEncryptFrom/To "
                                                    "stay within this one key")

    def _artifacts(self, *functions: lambda_.Function) -> None:
        bucket = self.data.bucket
        bucket_arns = references(self.stack, bucket.node.default_child, "Arn")  # type: ignore[arg-type]
        objects = [f"{arn}/*" for arn in bucket_arns]
        grant = ("Bucket.grantReadWrite on the data stack's artifacts bucket only, where the workflow keeps "
                 "payloads over the 256 KB state limit and the checkpoint saver its offloaded checkpoints")
        for fn in functions:
            bucket.grant_read_write(fn)
            # The checkpoint saver tags its S3 offload objects; list for the audit's decision attempts.
            fn.add_to_role_policy(iam.PolicyStatement(actions=["s3:PutObjectTagging"],
                                                      resources=[bucket.arn_for_objects("*")]))
            self._key_findings(fn)  # the grant includes encrypt/decrypt on the bucket's key, the data key
            for action, why in (("s3:GetObject*", "reads of stored payloads and checkpoints"),
                                ("s3:GetBucket*", "the saver reads the bucket's lifecycle configuration"),
                                ("s3:List*", "the audit lists a run's decision attempts"),
                                ("s3:DeleteObject*", "the saver deletes the offloaded payloads of a deleted thread"),
                                ("s3:Abort*", "AbortMultipartUpload comes with the grant (uploads here are single "
                                              "PutObjects), and only aborts uploads into this bucket")):
                self._finding(fn, f"Action::{action}", f"{why}; {grant}")
            for resource in objects:
                self._finding(fn, f"Resource::{resource}", "object keys are per run and per checkpoint thread, "
                                                           f"unknown at deploy time; {grant}")

    def _bedrock(self, fn: lambda_.Function) -> None:
        fn.add_to_role_policy(iam.PolicyStatement(actions=["bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream"],
                                                  resources=self.model_arns))
        for model_id in model_ids():
            model = f"arn:<AWS::Partition>:bedrock:*::foundation-model/{foundation_model(model_id)}"
            self._finding(fn, f"Resource::{model}",
                          "a cross-region inference profile may serve the request from this model in any region of "
                          "its geography; the model is named exactly (behaviour.json), only the region is open")

    def _finding(self, fn: lambda_.Function, what: str, reason: str) -> None:
        self._findings.setdefault(fn, {})[what] = reason

    def _acknowledge_findings(self) -> None:
        """IAM5 findings on each function's role policy, once per finding, once every grant is made."""
        for fn, findings in self._findings.items():
            policy = fn.role.node.find_child("DefaultPolicy").node.default_child  # type: ignore[union-attr]
            for what, reason in findings.items():
                iam5(policy, what, reason)
