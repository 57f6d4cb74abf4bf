"""What every SkyMarshal Lambda construct shares: one runtime and architecture (Python 3.12, x86_64, matching
the deps layer), the library and its dependencies as two layers, its own role and log group, X-Ray active,
Powertools service, log level and metrics namespace from the environment, and least-privilege grants named
table by table, with each cdk-nag finding acknowledged on the policy it is about.
"""

from __future__ import annotations

from pathlib import Path

from aws_cdk import Duration, RemovalPolicy, Stack
from aws_cdk import aws_iam as iam
from aws_cdk import aws_kms as kms
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from constructs import Construct

from skymarshal.checkpoint.config import BUCKET_ENV, CHECKPOINTER_ENV, TABLE_PREFIX_ENV
from skymarshal.data.schema import AUDIT_TRAIL, CHECKPOINTS, TABLES_BY_NAME
from skymarshal.llm.provider import GEOGRAPHY_ENV
from skymarshal.workflow.audit.anchor import ANCHOR_BUCKET_ENV

from .bedrock import ACTIONS as BEDROCK_ACTIONS
from .bedrock import stack_grant
from .config import REPO_ROOT, AppConfig
from .data_stack import AGENT_READ_ACTIONS, DataStack
from .layers import lambda_layers
from .nag import acknowledge, cfn_resource, default_policy, iam5, references

FUNCTIONS_DIR = REPO_ROOT / "functions"
WRITE_ACTIONS = ("dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem")
# The Checkpoints table (checkpoints, thread registry, approvals, execution events): Table.grantReadWriteData's
# actions without Scan (every read is a key or GSI lookup; a Scan is a bug) and without the stream actions
# (GetRecords/GetShardIterator act on a stream ARN, which is not granted). Its one GSI is named, not index/*.
CHECKPOINT_ACTIONS = (*AGENT_READ_ACTIONS, "dynamodb:DescribeTable", "dynamodb:BatchWriteItem", *WRITE_ACTIONS)
# The audit trail is append-only: writers put (conditionally) and read; nothing may update or delete.
AUDIT_APPEND_ACTIONS = ("dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:Query")


class FunctionsBase(Construct):
    def __init__(self, scope: Construct, construct_id: str, *, config: AppConfig, data: DataStack) -> None:
        super().__init__(scope, construct_id)
        self.stack = Stack.of(self)
        self.data = data
        self.bedrock_geography = config.bedrock_geography
        # function -> {cdk-nag finding on its role's policy: reason}, acknowledged once all grants are made
        self._findings: dict[lambda_.Function, dict[str, str]] = {}
        deps, library = lambda_layers(self)
        self.layers = [deps, library]
        self.environment = {
            TABLE_PREFIX_ENV: config.table_prefix,
            BUCKET_ENV: data.bucket.bucket_name,
            CHECKPOINTER_ENV: "dynamodb",
            "SKYMARSHAL_CHECKPOINT_TTL_DAYS": str(config.checkpoint_expiry_days),
            "SKYMARSHAL_LLM_PROVIDER": config.llm_provider,
            "POWERTOOLS_LOG_LEVEL": "INFO",
            "POWERTOOLS_METRICS_NAMESPACE": "SkyMarshal",
            "SKYMARSHAL_STAGE": config.stage,
        }

    def function(
        self,
        construct_id: str,
        code: Path,
        handler: str,
        service: str,
        *,
        timeout_s: int = 30,
        memory: int = 512,
        extra_env: dict[str, str] | None = None,
        extra_layers: list[lambda_.ILayerVersion] | None = None,
    ) -> lambda_.Function:
        log_group = logs.LogGroup(
            self, f"{construct_id}Logs", retention=logs.RetentionDays.THREE_MONTHS, removal_policy=RemovalPolicy.DESTROY
        )
        # A role of our own instead of the default one with AWSLambdaBasicExecutionRole (logs:* on every
        # log group, cdk-nag IAM4): the function writes to its own log group only.
        role = iam.Role(
            self,
            f"{construct_id}Role",
            assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
            description=f"SkyMarshal {service}: its log group, X-Ray, and its grants",
        )
        log_group.grant_write(role)
        fn = lambda_.Function(
            self,
            construct_id,
            runtime=lambda_.Runtime.PYTHON_3_12,
            architecture=lambda_.Architecture.X86_64,
            code=lambda_.Code.from_asset(str(code), exclude=["__pycache__"]),
            handler=handler,
            layers=[*self.layers, *(extra_layers or [])],
            timeout=Duration.seconds(timeout_s),
            memory_size=memory,
            tracing=lambda_.Tracing.ACTIVE,
            log_group=log_group,
            role=role,
            description=f"SkyMarshal {service}",
            environment={**self.environment, "POWERTOOLS_SERVICE_NAME": service, **(extra_env or {})},
        )
        acknowledge(
            cfn_resource(fn),
            "AwsSolutions-L1",
            "python3.12 on purpose: the deps layer is pip-installed for cp312 manylinux wheels "
            "(pydantic-core, orjson), so the runtime moves only together with a rebuilt layer",
        )
        self._finding(
            fn,
            "Resource::*",
            "X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no "
            "resource-level permissions; IAM only accepts * for them",
        )
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

    def grant_audit(self, fn: lambda_.Function, key: kms.IKey, *key_actions: str) -> None:
        """Append to (and read) the audit trail, and sign or verify its head with the key; no UpdateItem or
        DeleteItem: the trail is append-only."""
        iam.Grant.add_to_principal(
            grantee=fn, actions=list(AUDIT_APPEND_ACTIONS), resource_arns=[self.data.tables[AUDIT_TRAIL].table_arn]
        )
        self._encrypt_decrypt(fn)
        key.grant(fn, *key_actions)

    def _checkpoints(self, fn: lambda_.Function) -> None:
        """Checkpoints, thread registry, approvals and execution events all live in the Checkpoints table."""
        iam.Grant.add_to_principal(
            grantee=fn, actions=list(CHECKPOINT_ACTIONS), resource_arns=self._table_arns((CHECKPOINTS,))
        )
        self._encrypt_decrypt(fn)

    def _encrypt_decrypt(self, fn: lambda_.Function) -> None:
        self.data.key.grant_encrypt_decrypt(fn)
        self._key_findings(fn)

    def _key_findings(self, fn: lambda_.Function) -> None:
        key = "the data stack's one customer-managed key (tables and artifacts bucket), no other key"
        self._finding(
            fn,
            "Action::kms:GenerateDataKey*",
            f"Key.grantEncryptDecrypt's action set on {key}: writing SSE-KMS items and objects needs a data key of it",
        )
        self._finding(
            fn,
            "Action::kms:ReEncrypt*",
            f"Key.grantEncryptDecrypt's action set on {key}: ReEncryptFrom/To stay within this one key",
        )

    def _artifacts(self, *functions: lambda_.Function) -> None:
        bucket = self.data.bucket
        bucket_arns = references(self.stack, cfn_resource(bucket), "Arn")
        objects = [f"{arn}/*" for arn in bucket_arns]
        grant = (
            "Bucket.grantReadWrite on the data stack's artifacts bucket only, where the workflow keeps "
            "payloads over the 256 KB state limit and the checkpoint saver its offloaded checkpoints"
        )
        for fn in functions:
            bucket.grant_read_write(fn)
            # The checkpoint saver tags its S3 offload objects; list for the audit's decision attempts.
            fn.add_to_role_policy(
                iam.PolicyStatement(actions=["s3:PutObjectTagging"], resources=[bucket.arn_for_objects("*")])
            )
            # GetBucketLifecycleConfiguration is its own action (not in grantReadWrite's s3:GetBucket*): the saver
            # reads the lifecycle to find the data stack's checkpoint rule, and never writes it.
            fn.add_to_role_policy(
                iam.PolicyStatement(actions=["s3:GetLifecycleConfiguration"], resources=[bucket.bucket_arn])
            )
            self._key_findings(fn)  # the grant includes encrypt/decrypt on the bucket's key, the data key
            for action, why in (
                ("s3:GetObject*", "reads of stored payloads and checkpoints"),
                ("s3:GetBucket*", "comes with the grant (the bucket's location and versioning)"),
                ("s3:List*", "the audit lists a run's decision attempts"),
                ("s3:DeleteObject*", "the saver deletes the offloaded payloads of a deleted thread"),
                (
                    "s3:Abort*",
                    "AbortMultipartUpload comes with the grant (uploads here are single "
                    "PutObjects), and only aborts uploads into this bucket",
                ),
            ):
                self._finding(fn, f"Action::{action}", f"{why}; {grant}")
            for resource in objects:
                self._finding(
                    fn,
                    f"Resource::{resource}",
                    f"object keys are per run and per checkpoint thread, unknown at deploy time; {grant}",
                )

    def _read_artifacts(self, fn: lambda_.Function) -> None:
        """Read the workflow's run artifacts (collations, decisions, audit documents) and list a run's."""
        self.data.bucket.grant_read(fn)
        grant = "Bucket.grantRead on the data stack's artifacts bucket only, where the workflow keeps each run's record"
        self._finding(fn, "Action::s3:GetObject*", f"reads of a run's artifacts; {grant}")
        self._finding(fn, "Action::s3:GetBucket*", f"comes with the grant; {grant}")
        self._finding(fn, "Action::s3:List*", f"the audit lists a run's decision attempts; {grant}")
        for arn in references(self.stack, cfn_resource(self.data.bucket), "Arn"):
            self._finding(fn, f"Resource::{arn}/*", f"object keys are per run, unknown at deploy time; {grant}")

    def grant_anchor_put(self, fn: lambda_.Function) -> None:
        """Leave a finished run's audit head in the Object Lock bucket (workflow/audit/anchor.py write_locked):
        s3:PutObject on anchors/* and nothing else. Not Bucket.grantPut, whose PutObjectRetention and
        PutObjectLegalHold would let a PUT carry its own shorter GOVERNANCE retention instead of the bucket's
        COMPLIANCE default; no read, no delete (a version cannot be deleted before its retention ends anyway)."""
        bucket = self.data.anchor_bucket
        objects = bucket.arn_for_objects(f"{self.data.anchor_prefix}*")
        iam.Grant.add_to_principal(grantee=fn, actions=["s3:PutObject"], resource_arns=[objects])
        fn.add_environment(ANCHOR_BUCKET_ENV, bucket.bucket_name)
        self._anchor_finding(fn, "PutObject only, so Learn can add an anchor and cannot read, retain or delete one")

    def grant_anchor_read(self, fn: lambda_.Function) -> None:
        """Read the audit anchors for `audit verify` (workflow/audit/anchor.py locked_anchors reads every version,
        so a delete marker or a newer version cannot hide a locked one): GetObjectVersion on anchors/* and
        ListBucketVersions of that prefix only (the s3:prefix condition; Bucket.grantRead cannot narrow a
        listing, and brings GetBucket*/List* besides); no write."""
        bucket = self.data.anchor_bucket
        objects = bucket.arn_for_objects(f"{self.data.anchor_prefix}*")
        iam.Grant.add_to_principal(grantee=fn, actions=["s3:GetObjectVersion"], resource_arns=[objects])
        iam.Grant.add_to_principal(
            grantee=fn,
            actions=["s3:ListBucketVersions"],
            resource_arns=[bucket.bucket_arn],
            conditions={"StringLike": {"s3:prefix": [f"{self.data.anchor_prefix}*"]}},
        )
        fn.add_environment(ANCHOR_BUCKET_ENV, bucket.bucket_name)
        self._anchor_finding(fn, "GetObjectVersion only, so the verifier reads anchors and cannot write or delete one")

    def _anchor_finding(self, fn: lambda_.Function, what_it_may: str) -> None:
        for arn in references(self.stack, cfn_resource(self.data.anchor_bucket), "Arn"):
            self._finding(
                fn,
                f"Resource::{arn}/{self.data.anchor_prefix}*",
                "an anchor's key names its disruption and record (anchors/<disruption id>/<seq>.json), unknown at "
                f"deploy time; the audit anchor bucket under Object Lock only, its anchors/ prefix only; {what_it_may}",
            )

    def _finding(self, fn: lambda_.Function, what: str, reason: str) -> None:
        self._findings.setdefault(fn, {})[what] = reason

    def _acknowledge_findings(self) -> None:
        """IAM5 findings on each function's role policy, once per finding, once every grant is made."""
        for fn, findings in self._findings.items():
            policy = default_policy(fn.role)
            for what, reason in findings.items():
                iam5(policy, what, reason)

    def grant_bedrock(self, fn: lambda_.Function, model_ids: list[str], source: str) -> None:
        """InvokeModel on exactly the configured models' inference profiles (`source` names the config file
        they come from), and on their foundation models only through those profiles (infra/bedrock.py)."""
        grant = stack_grant(self.stack, model_ids, self.bedrock_geography)
        fn.add_to_role_policy(iam.PolicyStatement(actions=list(BEDROCK_ACTIONS), resources=grant.profile_arns))
        fn.add_to_role_policy(
            iam.PolicyStatement(
                actions=list(BEDROCK_ACTIONS),
                resources=grant.model_arns,
                conditions={"StringEquals": {"bedrock:InferenceProfileArn": grant.profile_arns}},
            )
        )
        fn.add_environment(GEOGRAPHY_ENV, grant.geography)  # the runtime resolves the profile its role names
        for arn in grant.model_arns:
            if "*" in arn:  # literal geography patterns (eu-*, *); with `regional` the pattern is a mapping lookup
                self._finding(
                    fn,
                    f"Resource::{arn.replace(self.stack.partition, '<AWS::Partition>')}",
                    "a cross-region inference profile serves the request from this foundation model in any "
                    f"region of its geography; the model is named exactly ({source}) and usable only "
                    "through the granted inference profile (condition bedrock:InferenceProfileArn)",
                )
