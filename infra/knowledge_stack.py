"""The knowledge-base stack: a Bedrock Knowledge Base over the repo's `knowledge/` markdown corpus,
which the arbitrator retrieves from to cite regulations and procedures.

Vector store: S3 Vectors rather than OpenSearch Serverless.
- Cost: OpenSearch Serverless bills a minimum of OCUs around the clock, whether or not anything is
  queried; S3 Vectors bills storage and requests only, so an idle stage costs next to nothing.
- Size: the corpus is tens of documents; nothing here needs a search cluster's throughput.
- Latency: S3 Vectors queries are slower than OpenSearch's (AWS quotes sub-second, against tens of
  milliseconds), which is immaterial for an arbitrator that runs for seconds per disruption.
- Operations: fully managed, no capacity planning, no collection or index mapping to create
  out of band — the vector bucket and index are plain CloudFormation resources.

Deployment: the corpus is uploaded to `documents/` in the documents bucket, then a custom resource
starts an ingestion job. Its physical id carries the corpus asset hash, so changing the corpus
re-ingests on the next deploy (the job runs asynchronously after the deploy returns).
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import aws_cdk as cdk
from aws_cdk import CfnOutput, Duration, Stack
from aws_cdk import aws_bedrock as bedrock
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_assets as s3_assets
from aws_cdk import aws_s3_deployment as s3deploy
from aws_cdk import aws_s3vectors as s3vectors
from aws_cdk import custom_resources as cr
from constructs import Construct

from .config import REPO_ROOT, AppConfig
from .nag import acknowledge, cfn_resource, default_policy
from .storage import access_log_bucket, noncurrent_versions_rule, secure_bucket_options

CORPUS_DIR = REPO_ROOT / "knowledge"  # from the repo root, never the working directory
CORPUS_EXCLUDE = ["README.md"]  # the corpus README describes the folder; it is not knowledge
DOCUMENTS_PREFIX = "documents/"

EMBEDDING_MODEL_ID = "amazon.titan-embed-text-v2:0"
EMBEDDING_DIMENSIONS = 1024  # Titan Text Embeddings V2 at its default (and largest) size
# Bedrock stores each chunk's text and its metadata as vector metadata. S3 Vectors allows only 2 KB
# of *filterable* metadata per vector, so both keys must be non-filterable or ingestion fails on
# PutVectors; the setting cannot be changed on an existing index (replacement).
BEDROCK_NON_FILTERABLE_KEYS = ["AMAZON_BEDROCK_TEXT", "AMAZON_BEDROCK_METADATA"]

# Data-plane actions the knowledge base performs on its index: write and delete vectors during
# ingestion, query and read them during Retrieve. No bucket- or index-management action.
VECTOR_INDEX_ACTIONS = (
    "s3vectors:GetIndex",
    "s3vectors:PutVectors",
    "s3vectors:GetVectors",
    "s3vectors:DeleteVectors",
    "s3vectors:QueryVectors",
)

# Chunking: SEMANTIC. The corpus files are markdown whose `## ` sections (80–300 words) are each one
# rule or procedure, and the arbitrator cites a section. Semantic chunking splits where the meaning
# of consecutive sentences changes, which is at those section boundaries. FIXED_SIZE would cut
# sections at arbitrary token counts and glue the tail of one rule to the head of the next;
# HIERARCHICAL returns multi-section parent chunks, which blurs the citation and spends prompt tokens
# for no gain at this corpus size. Semantic chunking embeds sentences at ingestion: cents for tens
# of documents. Settings, measured on the corpus: the longest section is ~470 tokens (chars / 4), so
# `max_tokens` 600 keeps every section whole with headroom for number-dense text; section boundaries
# are 6–8% of sentence gaps, so the 90th percentile (console default 95, which would merge pairs of
# sections) makes about one breakpoint per section; buffer 1 compares each sentence with neighbours.
SEMANTIC_CHUNKING = dict(max_tokens=600, buffer_size=1, breakpoint_percentile_threshold=90)


class KnowledgeStack(Stack):
    """Documents bucket + corpus upload, S3 Vectors store, Bedrock knowledge base, ingestion at deploy.

    For the workflow stack: `knowledge_base_id` (SKYMARSHAL_KNOWLEDGE_BASE_ID), `knowledge_base_arn`
    and `grant_retrieve(function)`.
    """

    def __init__(
        self, scope: Construct, construct_id: str, *, config: AppConfig, corpus_dir: Path = CORPUS_DIR, **kwargs
    ) -> None:
        super().__init__(
            scope,
            construct_id,
            description="SkyMarshal knowledge base: corpus bucket, S3 Vectors index, Bedrock knowledge base",
            **kwargs,
        )
        if not corpus_dir.is_dir():
            raise FileNotFoundError(f"knowledge corpus folder {corpus_dir} does not exist")
        self.config = config
        self.documents_prefix = DOCUMENTS_PREFIX

        # Asset first: its hash (of the corpus minus the excluded files) is the ingestion trigger.
        self.corpus = s3_assets.Asset(self, "Corpus", path=str(corpus_dir), exclude=CORPUS_EXCLUDE)
        self.corpus_hash: str = self.corpus.asset_hash

        self.documents_bucket = self._documents_bucket()
        deployment = s3deploy.BucketDeployment(
            self,
            "DeployCorpus",
            sources=[s3deploy.Source.bucket(self.corpus.bucket, self.corpus.s3_object_key)],
            destination_bucket=self.documents_bucket,
            destination_key_prefix=DOCUMENTS_PREFIX,
            # prune (the default): a file removed from the corpus is deleted from documents/, and
            # the next ingestion job deletes its vectors.
            prune=True,
        )

        self.embedding_model_arn = self.format_arn(
            service="bedrock",
            account="",  # foundation models have no account in their ARN
            resource="foundation-model",
            resource_name=EMBEDDING_MODEL_ID,
        )

        # The vector store is derived data, rebuilt by an ingestion job from documents/: it goes
        # with the stack whatever the configured removal policy.
        self.vector_bucket = s3vectors.CfnVectorBucket(
            self,
            "VectorBucket",
            encryption_configuration=s3vectors.CfnVectorBucket.EncryptionConfigurationProperty(sse_type="AES256"),
        )
        self.vector_index = s3vectors.CfnIndex(
            self,
            "VectorIndex",
            vector_bucket_arn=self.vector_bucket.attr_vector_bucket_arn,
            data_type="float32",
            dimension=EMBEDDING_DIMENSIONS,
            distance_metric="cosine",
            metadata_configuration=s3vectors.CfnIndex.MetadataConfigurationProperty(
                non_filterable_metadata_keys=BEDROCK_NON_FILTERABLE_KEYS
            ),
        )

        self.service_role = self._service_role()
        self.knowledge_base = bedrock.CfnKnowledgeBase(
            self,
            "KnowledgeBase",
            name=f"SkyMarshal-{config.stage}-knowledge",
            description="SkyMarshal regulations and procedures corpus, cited by the arbitrator",
            role_arn=self.service_role.role_arn,
            knowledge_base_configuration=bedrock.CfnKnowledgeBase.KnowledgeBaseConfigurationProperty(
                type="VECTOR",
                vector_knowledge_base_configuration=bedrock.CfnKnowledgeBase.VectorKnowledgeBaseConfigurationProperty(
                    embedding_model_arn=self.embedding_model_arn,
                    embedding_model_configuration=bedrock.CfnKnowledgeBase.EmbeddingModelConfigurationProperty(
                        bedrock_embedding_model_configuration=bedrock.CfnKnowledgeBase.BedrockEmbeddingModelConfigurationProperty(
                            dimensions=EMBEDDING_DIMENSIONS, embedding_data_type="FLOAT32"
                        )
                    ),
                ),
            ),
            storage_configuration=bedrock.CfnKnowledgeBase.StorageConfigurationProperty(
                type="S3_VECTORS",
                s3_vectors_configuration=bedrock.CfnKnowledgeBase.S3VectorsConfigurationProperty(
                    index_arn=self.vector_index.attr_index_arn
                ),
            ),
        )
        self.knowledge_base_id: str = self.knowledge_base.attr_knowledge_base_id
        self.knowledge_base_arn: str = self.knowledge_base.attr_knowledge_base_arn

        self.data_source = bedrock.CfnDataSource(
            self,
            "DataSource",
            knowledge_base_id=self.knowledge_base_id,
            name="corpus-documents",
            description=f"Markdown corpus under s3://<documents bucket>/{DOCUMENTS_PREFIX}",
            # DELETE: a document removed from the corpus loses its vectors at the next ingestion.
            data_deletion_policy="DELETE",
            data_source_configuration=bedrock.CfnDataSource.DataSourceConfigurationProperty(
                type="S3",
                s3_configuration=bedrock.CfnDataSource.S3DataSourceConfigurationProperty(
                    bucket_arn=self.documents_bucket.bucket_arn, inclusion_prefixes=[DOCUMENTS_PREFIX]
                ),
            ),
            vector_ingestion_configuration=bedrock.CfnDataSource.VectorIngestionConfigurationProperty(
                chunking_configuration=bedrock.CfnDataSource.ChunkingConfigurationProperty(
                    chunking_strategy="SEMANTIC",
                    semantic_chunking_configuration=bedrock.CfnDataSource.SemanticChunkingConfigurationProperty(
                        **SEMANTIC_CHUNKING
                    ),
                )
            ),
        )
        self.data_source_id: str = self.data_source.attr_data_source_id

        self.ingestion = self._ingestion(deployment)
        self._acknowledge_framework_findings(deployment)
        self._outputs()

    def grant_retrieve(self, grantee: iam.IGrantable) -> iam.Grant:
        """bedrock:Retrieve on this knowledge base only (the arbitrator's citations)."""
        return iam.Grant.add_to_principal(
            grantee=grantee, actions=["bedrock:Retrieve"], resource_arns=[self.knowledge_base_arn]
        )

    def _documents_bucket(self) -> s3.Bucket:
        common = secure_bucket_options(
            removal_policy=self.config.cdk_removal_policy, auto_delete_objects=self.config.destroy_on_delete
        )
        # A log target in this stack (see storage.access_log_bucket for why not the data stack's).
        access_logs = access_log_bucket(self, "AccessLogs", **common)
        # SSE-S3, not the data stack's CMK: the corpus is reference text (regulations, procedures)
        # with nothing confidential, and a CMK would add a cross-stack key grant for the knowledge
        # base role and the upload function. The vector bucket is SSE-S3 for the same reason (a CMK
        # there also needs a key-policy statement for the S3 Vectors indexing service).
        return s3.Bucket(
            self,
            "Documents",
            encryption=s3.BucketEncryption.S3_MANAGED,
            versioned=True,
            server_access_logs_bucket=access_logs,
            server_access_logs_prefix="documents-bucket/",
            lifecycle_rules=[noncurrent_versions_rule()],
            **common,
        )

    def _service_role(self) -> iam.Role:
        """The role Bedrock assumes to read documents/, embed chunks and write the index.

        Inline policies, not a separate Policy resource: the permissions exist as soon as the role
        does, so neither the knowledge base (which depends on the role) nor the first ingestion job
        can run ahead of them.
        """
        index_arn = self.vector_index.attr_index_arn
        statements = [
            iam.PolicyStatement(
                sid="EmbedWithOneModel", actions=["bedrock:InvokeModel"], resources=[self.embedding_model_arn]
            ),
            iam.PolicyStatement(
                sid="ListDocumentsBucket", actions=["s3:ListBucket"], resources=[self.documents_bucket.bucket_arn]
            ),
            iam.PolicyStatement(
                sid="ReadDocuments",
                actions=["s3:GetObject"],
                resources=[self.documents_bucket.arn_for_objects(f"{DOCUMENTS_PREFIX}*")],
            ),
            iam.PolicyStatement(sid="UseOneVectorIndex", actions=list(VECTOR_INDEX_ACTIONS), resources=[index_arn]),
        ]
        role = iam.Role(
            self,
            "ServiceRole",
            description="Assumed by Bedrock for the SkyMarshal knowledge base",
            assumed_by=iam.ServicePrincipal(
                "bedrock.amazonaws.com",
                conditions={
                    # Confused-deputy guard: only this account's knowledge bases may assume it.
                    "StringEquals": {"aws:SourceAccount": self.account},
                    "ArnLike": {
                        "aws:SourceArn": self.format_arn(
                            service="bedrock", resource="knowledge-base", resource_name="*"
                        )
                    },
                },
            ),
            inline_policies={"KnowledgeBase": iam.PolicyDocument(statements=statements)},
        )
        acknowledge(
            role,
            f"AwsSolutions-IAM5[Resource::<{self.get_logical_id(self._bucket_cfn())}.Arn>/{DOCUMENTS_PREFIX}*]",
            "s3:GetObject must name objects by key pattern; it is scoped to the documents/ prefix of this "
            "stack's documents bucket, which holds only the corpus the knowledge base ingests",
        )
        return role

    def _bucket_cfn(self) -> s3.CfnBucket:
        bucket = cfn_resource(self.documents_bucket)
        if not isinstance(bucket, s3.CfnBucket):
            raise TypeError(f"{self.documents_bucket.node.path}: the default child is not a CfnBucket")
        return bucket

    def _ingestion(self, deployment: s3deploy.BucketDeployment) -> cr.AwsCustomResource:
        """StartIngestionJob on create and on every update; a corpus change is an update.

        The physical id and the job description carry the corpus hash: a new corpus changes the
        resource's properties, CloudFormation updates it, and the update starts a job. Nothing on
        delete — the knowledge base and its vectors are deleted with the stack.
        """
        start = cr.AwsSdkCall(
            service="bedrock-agent",
            action="StartIngestionJob",
            parameters={
                "knowledgeBaseId": self.knowledge_base_id,
                "dataSourceId": self.data_source_id,
                "description": f"SkyMarshal corpus {self.corpus_hash}",
            },
            physical_resource_id=cr.PhysicalResourceId.of(f"corpus-{self.corpus_hash}"),
            # Only the job id comes back: a custom resource response is capped at 4 KB.
            output_paths=["ingestionJob.ingestionJobId"],
        )
        ingestion = cr.AwsCustomResource(
            self,
            "StartIngestion",
            on_create=start,
            on_update=start,
            policy=cr.AwsCustomResourcePolicy.from_statements(
                [iam.PolicyStatement(actions=["bedrock:StartIngestionJob"], resources=[self.knowledge_base_arn])]
            ),
            install_latest_aws_sdk=False,  # the Node.js runtime's SDK v3 has bedrock-agent
            timeout=Duration.minutes(2),
        )
        # Ingest only once the corpus is in documents/ (and again after every corpus upload).
        ingestion.node.add_dependency(deployment)
        return ingestion

    def _acknowledge_framework_findings(self, deployment: s3deploy.BucketDeployment) -> None:
        """cdk-nag findings on aws-cdk-lib's two framework Lambdas (per-stack singletons), each
        acknowledged on the one resource it is about: the role, its default policy, the function."""
        upload_role = deployment.handler_role
        upload_policy = default_policy(upload_role)
        upload_fn = cfn_resource(upload_role.node.scope)
        ingest_role = cast(iam.IRole, self.ingestion.grant_principal)  # AwsCustomResource's principal: its role
        basic_execution = (
            "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]"
        )
        for role, what in ((upload_role, "BucketDeployment upload"), (ingest_role, "AwsCustomResource ingestion")):
            acknowledge(
                role,
                basic_execution,
                f"aws-cdk-lib's {what} function attaches AWSLambdaBasicExecutionRole, which only lets "
                "it write its own CloudWatch Logs; the framework role is not configurable",
            )
        qualifier = (
            self.node.try_get_context("@aws-cdk/core:bootstrapQualifier")
            or cdk.DefaultStackSynthesizer.DEFAULT_QUALIFIER
        )
        asset_objects = f"arn:<AWS::Partition>:s3:::cdk-{qualifier}-assets-<AWS::AccountId>-<AWS::Region>/*"
        documents_objects = f"<{self.get_logical_id(self._bucket_cfn())}.Arn>/*"
        grant = (
            "written by aws-cdk-lib's Bucket.grantRead/grantReadWrite for the BucketDeployment upload "
            "function, which runs `aws s3 sync --delete` of the corpus zip into documents/"
        )
        for finding, reason in (
            ("Action::s3:GetObject*", f"Read of the corpus zip and the documents bucket, {grant}"),
            ("Action::s3:GetBucket*", f"Bucket metadata reads on the asset and documents buckets, {grant}"),
            ("Action::s3:List*", f"Listing to diff source and destination, {grant}"),
            ("Action::s3:DeleteObject*", f"Pruning files removed from the corpus, {grant}"),
            ("Action::s3:Abort*", f"Aborting a failed multipart upload, {grant}"),
            (
                f"Resource::{asset_objects}",
                "Read-only on the CDK bootstrap asset bucket, where the corpus zip "
                "lives under a content-hash key; " + grant,
            ),
            (
                f"Resource::{documents_objects}",
                "Objects of this stack's documents bucket, which holds only the corpus; " + grant,
            ),
        ):
            acknowledge(upload_policy, f"AwsSolutions-IAM5[{finding}]", reason)
        acknowledge(
            upload_fn,
            "AwsSolutions-L1",
            "The BucketDeployment upload function's Python runtime is pinned by aws-cdk-lib (python3.13 "
            "in 2.275) and is not a construct property; it moves forward with aws-cdk-lib upgrades",
        )

    def _outputs(self) -> None:
        CfnOutput(
            self,
            "KnowledgeBaseId",
            value=self.knowledge_base_id,
            description="SKYMARSHAL_KNOWLEDGE_BASE_ID for the arbitrator",
        )
        CfnOutput(
            self,
            "DataSourceId",
            value=self.data_source_id,
            description="Data source of the corpus (documents/), for StartIngestionJob",
        )
        CfnOutput(
            self,
            "DocumentsBucketName",
            value=self.documents_bucket.bucket_name,
            description=f"Corpus bucket; the knowledge base ingests {DOCUMENTS_PREFIX}",
        )
        CfnOutput(
            self,
            "LastIngestionJobId",
            value=self.ingestion.get_response_field("ingestionJob.ingestionJobId"),
            description="Ingestion job started by the last deploy (aws bedrock-agent get-ingestion-job)",
        )
