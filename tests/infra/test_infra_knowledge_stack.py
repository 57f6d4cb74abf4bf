"""CDK assertions on the synthesized knowledge stack: corpus bucket and upload, S3 Vectors index,
Bedrock knowledge base and data source, ingestion at deploy, a least-privilege service role."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import aws_cdk as cdk
from aws_cdk import CfnDeletionPolicy
from aws_cdk import aws_iam as iam
from aws_cdk import aws_s3 as s3
from aws_cdk.assertions import Match, Template

from infra import KNOWLEDGE_STACK_ID, AppConfig, KnowledgeStack, build_app
from infra.knowledge_stack import (
    BEDROCK_NON_FILTERABLE_KEYS,
    CORPUS_DIR,
    DOCUMENTS_PREFIX,
    EMBEDDING_MODEL_ID,
    SEMANTIC_CHUNKING,
    VECTOR_INDEX_ACTIONS,
)

EMBEDDING_MODEL_ARN = {
    "Fn::Join": [
        "",
        [
            "arn:",
            {"Ref": "AWS::Partition"},
            ":bedrock:",
            {"Ref": "AWS::Region"},
            f"::foundation-model/{EMBEDDING_MODEL_ID}",
        ],
    ]
}


def _resources(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def _one(template: dict[str, Any], type_: str) -> tuple[str, dict[str, Any]]:
    found = _resources(template, type_)
    assert len(found) == 1, f"expected one {type_}, found {sorted(found)}"
    return next(iter(found.items()))


def _documents_bucket_id(template: dict[str, Any]) -> str:
    """The versioned bucket; the other one is its access-log target."""
    ids = [
        k
        for k, b in _resources(template, "AWS::S3::Bucket").items()
        if b["Properties"].get("VersioningConfiguration") == {"Status": "Enabled"}
    ]
    assert len(ids) == 1
    return ids[0]


def _statements(policy: dict[str, Any]) -> list[dict[str, Any]]:
    return policy["Statement"]


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _service_role(template: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    roles = {
        k: r
        for k, r in _resources(template, "AWS::IAM::Role").items()
        if r["Properties"]["AssumeRolePolicyDocument"]["Statement"][0]["Principal"]
        == {"Service": "bedrock.amazonaws.com"}
    }
    assert len(roles) == 1
    return next(iter(roles.items()))


def test_vector_index_fits_titan_v2(knowledge_template_json: dict[str, Any]) -> None:
    bucket_id, _ = _one(knowledge_template_json, "AWS::S3Vectors::VectorBucket")
    _, index = _one(knowledge_template_json, "AWS::S3Vectors::Index")
    props = index["Properties"]
    assert (props["DataType"], props["Dimension"], props["DistanceMetric"]) == ("float32", 1024, "cosine")
    assert props["VectorBucketArn"] == {"Fn::GetAtt": [bucket_id, "VectorBucketArn"]}
    # Bedrock's chunk text and metadata exceed S3 Vectors' 2 KB filterable-metadata limit.
    assert props["MetadataConfiguration"]["NonFilterableMetadataKeys"] == BEDROCK_NON_FILTERABLE_KEYS


def test_knowledge_base_on_s3_vectors(knowledge_template_json: dict[str, Any]) -> None:
    index_id, _ = _one(knowledge_template_json, "AWS::S3Vectors::Index")
    role_id, _ = _service_role(knowledge_template_json)
    _, kb = _one(knowledge_template_json, "AWS::Bedrock::KnowledgeBase")
    props = kb["Properties"]
    assert props["RoleArn"] == {"Fn::GetAtt": [role_id, "Arn"]}
    config = props["KnowledgeBaseConfiguration"]
    assert config["Type"] == "VECTOR"
    vector = config["VectorKnowledgeBaseConfiguration"]
    assert vector["EmbeddingModelArn"] == EMBEDDING_MODEL_ARN  # built from the stack's partition and region
    assert vector["EmbeddingModelConfiguration"]["BedrockEmbeddingModelConfiguration"] == {
        "Dimensions": 1024,
        "EmbeddingDataType": "FLOAT32",
    }
    assert props["StorageConfiguration"] == {
        "Type": "S3_VECTORS",
        "S3VectorsConfiguration": {"IndexArn": {"Fn::GetAtt": [index_id, "IndexArn"]}},
    }


def test_data_source_reads_the_documents_prefix(knowledge_template_json: dict[str, Any]) -> None:
    kb_id, _ = _one(knowledge_template_json, "AWS::Bedrock::KnowledgeBase")
    _, source = _one(knowledge_template_json, "AWS::Bedrock::DataSource")
    props = source["Properties"]
    assert props["KnowledgeBaseId"] == {"Fn::GetAtt": [kb_id, "KnowledgeBaseId"]}
    assert props["DataSourceConfiguration"] == {
        "Type": "S3",
        "S3Configuration": {
            "BucketArn": {"Fn::GetAtt": [_documents_bucket_id(knowledge_template_json), "Arn"]},
            "InclusionPrefixes": [DOCUMENTS_PREFIX],
        },
    }
    assert props["DataDeletionPolicy"] == "DELETE"
    chunking = props["VectorIngestionConfiguration"]["ChunkingConfiguration"]
    assert chunking == {
        "ChunkingStrategy": "SEMANTIC",
        "SemanticChunkingConfiguration": {
            "MaxTokens": SEMANTIC_CHUNKING["max_tokens"],
            "BufferSize": SEMANTIC_CHUNKING["buffer_size"],
            "BreakpointPercentileThreshold": SEMANTIC_CHUNKING["breakpoint_percentile_threshold"],
        },
    }


def test_every_corpus_section_fits_in_one_chunk() -> None:
    """A `## ` section longer than max_tokens would be split mid-rule (tokens estimated as chars / 4)."""
    sections = [
        (path.name, section.splitlines()[0], len(section) / 4)
        for path in sorted(CORPUS_DIR.glob("*.md"))
        if path.name != "README.md"
        for section in re.split(r"(?m)^## ", path.read_text())[1:]
    ]
    assert sections, "knowledge/ holds no `## ` section"
    too_long = [s for s in sections if s[2] > SEMANTIC_CHUNKING["max_tokens"] * 0.9]
    assert not too_long, f"sections near or over max_tokens {SEMANTIC_CHUNKING['max_tokens']}: {too_long}"


def test_documents_bucket(knowledge_template_json: dict[str, Any]) -> None:
    buckets = _resources(knowledge_template_json, "AWS::S3::Bucket")
    docs_id = _documents_bucket_id(knowledge_template_json)
    logs_id = next(k for k in buckets if k != docs_id)
    docs = buckets[docs_id]["Properties"]
    assert docs["BucketEncryption"]["ServerSideEncryptionConfiguration"][0]["ServerSideEncryptionByDefault"] == {
        "SSEAlgorithm": "AES256"
    }
    assert docs["LoggingConfiguration"]["DestinationBucketName"] == {"Ref": logs_id}

    policies = {
        p["Properties"]["Bucket"]["Ref"]: _statements(p["Properties"]["PolicyDocument"])
        for p in _resources(knowledge_template_json, "AWS::S3::BucketPolicy").values()
    }
    for bucket_id, bucket in buckets.items():
        assert bucket["Properties"]["PublicAccessBlockConfiguration"] == {
            "BlockPublicAcls": True,
            "BlockPublicPolicy": True,
            "IgnorePublicAcls": True,
            "RestrictPublicBuckets": True,
        }
        assert bucket["DeletionPolicy"] == "Retain"  # cdk.json's default removal policy
        statements = policies[bucket_id]
        assert any(
            s["Effect"] == "Deny" and s.get("Condition") == {"Bool": {"aws:SecureTransport": "false"}}
            for s in statements
        ), f"{bucket_id}: plain HTTP is not denied"
        assert any(
            s["Effect"] == "Deny" and s.get("Condition") == {"NumericLessThan": {"s3:TlsVersion": 1.2}}
            for s in statements
        ), f"{bucket_id}: TLS below 1.2 is not denied"
    # Log delivery is admitted from the documents bucket of this account only.
    allow = [s for s in policies[logs_id] if s["Effect"] == "Allow"]
    assert len(allow) == 1 and allow[0]["Principal"] == {"Service": "logging.s3.amazonaws.com"}
    assert allow[0]["Condition"]["ArnLike"] == {"aws:SourceArn": {"Fn::GetAtt": [docs_id, "Arn"]}}


def test_corpus_is_uploaded_to_documents_prefix(knowledge_template_json: dict[str, Any], synthesized) -> None:
    _, deployment = _one(knowledge_template_json, "Custom::CDKBucketDeployment")
    props = deployment["Properties"]
    assert props["DestinationBucketName"] == {"Ref": _documents_bucket_id(knowledge_template_json)}
    assert props["DestinationBucketKeyPrefix"] == DOCUMENTS_PREFIX
    assert props["Prune"] is True
    assert props["SourceObjectKeys"] == [f"{synthesized.stacks.knowledge.corpus_hash}.zip"]

    # The staged asset is the repo's knowledge/ folder without README.md.
    staged = synthesized.outdir / f"asset.{synthesized.stacks.knowledge.corpus_hash}"
    corpus = {p.relative_to(CORPUS_DIR) for p in CORPUS_DIR.rglob("*") if p.is_file()}
    assert {p.relative_to(staged) for p in staged.rglob("*") if p.is_file()} == {
        p for p in corpus if p.name != "README.md"
    }
    assert any(p.suffix == ".md" for p in corpus), "knowledge/ holds no markdown document"


def test_ingestion_starts_after_upload_on_create_and_update(
    knowledge_template_json: dict[str, Any], synthesized
) -> None:
    kb_id, _ = _one(knowledge_template_json, "AWS::Bedrock::KnowledgeBase")
    source_id, _ = _one(knowledge_template_json, "AWS::Bedrock::DataSource")
    deployment_id, _ = _one(knowledge_template_json, "Custom::CDKBucketDeployment")
    _ingestion_id, ingestion = _one(knowledge_template_json, "Custom::AWS")
    props = ingestion["Properties"]
    assert props["Create"] == props["Update"], "a corpus change (an update) must ingest too"
    assert "Delete" not in props

    parts = props["Create"]["Fn::Join"][1]
    assert {"Fn::GetAtt": [kb_id, "KnowledgeBaseId"]} in parts
    assert {"Fn::GetAtt": [source_id, "DataSourceId"]} in parts
    text = "".join(p for p in parts if isinstance(p, str))
    assert '"service":"bedrock-agent"' in text and '"action":"StartIngestionJob"' in text
    corpus_hash = synthesized.stacks.knowledge.corpus_hash
    assert f'"physicalResourceId":{{"id":"corpus-{corpus_hash}"}}' in text
    assert deployment_id in ingestion["DependsOn"]

    # Its policy: StartIngestionJob on this knowledge base, nothing else.
    policies = [
        p
        for p in _resources(knowledge_template_json, "AWS::IAM::Policy").values()
        if any("StartIngestionJob" in json.dumps(s) for s in _statements(p["Properties"]["PolicyDocument"]))
    ]
    assert len(policies) == 1
    assert _statements(policies[0]["Properties"]["PolicyDocument"]) == [
        {
            "Action": "bedrock:StartIngestionJob",
            "Effect": "Allow",
            "Resource": {"Fn::GetAtt": [kb_id, "KnowledgeBaseArn"]},
        }
    ]


def test_corpus_hash_ignores_readme_and_follows_documents(make_app, tmp_path: Path) -> None:
    """The ingestion physical id is `corpus-<hash>`: a document change re-ingests, a README edit does not."""

    def corpus_hash(files: dict[str, str]) -> str:
        corpus = tmp_path / f"corpus{len(list(tmp_path.iterdir()))}"
        corpus.mkdir()
        for name, text in files.items():
            (corpus / name).write_text(text)
        app = make_app(tmp_path / f"out-{corpus.name}")
        return KnowledgeStack(app, "K", config=AppConfig(), corpus_dir=corpus).corpus_hash

    base = {"eu261.md": "## Article 7\n250 EUR\n", "README.md": "about the corpus\n"}
    first = corpus_hash(base)
    assert corpus_hash({**base, "README.md": "edited\n"}) == first
    assert corpus_hash({**base, "eu261.md": "## Article 7\n300 EUR\n"}) != first


def test_service_role_trusts_bedrock_of_this_account(knowledge_template_json: dict[str, Any]) -> None:
    _, role = _service_role(knowledge_template_json)
    [trust] = role["Properties"]["AssumeRolePolicyDocument"]["Statement"]
    assert trust["Action"] == "sts:AssumeRole"
    assert trust["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    assert "aws:SourceArn" in trust["Condition"]["ArnLike"]


def test_service_role_is_least_privilege(knowledge_template_json: dict[str, Any]) -> None:
    _, role = _service_role(knowledge_template_json)
    assert "ManagedPolicyArns" not in role["Properties"]
    statements = [s for p in role["Properties"]["Policies"] for s in _statements(p["PolicyDocument"])]
    by_action = {a: s for s in statements for a in _as_list(s["Action"])}
    index_id, _ = _one(knowledge_template_json, "AWS::S3Vectors::Index")
    docs_arn = {"Fn::GetAtt": [_documents_bucket_id(knowledge_template_json), "Arn"]}

    assert set(by_action) == {"bedrock:InvokeModel", "s3:ListBucket", "s3:GetObject", *VECTOR_INDEX_ACTIONS}
    assert by_action["bedrock:InvokeModel"]["Resource"] == EMBEDDING_MODEL_ARN
    assert by_action["s3:ListBucket"]["Resource"] == docs_arn
    assert by_action["s3:GetObject"]["Resource"] == {"Fn::Join": ["", [docs_arn, f"/{DOCUMENTS_PREFIX}*"]]}
    for action in VECTOR_INDEX_ACTIONS:
        assert by_action[action]["Resource"] == {"Fn::GetAtt": [index_id, "IndexArn"]}
    assert all(s["Effect"] == "Allow" for s in statements)


def test_no_policy_in_the_stack_invokes_models_on_a_wildcard(knowledge_template_json: dict[str, Any]) -> None:
    documents = [
        p["PolicyDocument"]
        for r in _resources(knowledge_template_json, "AWS::IAM::Role").values()
        for p in r["Properties"].get("Policies", [])
    ]
    documents += [
        p["Properties"]["PolicyDocument"] for p in _resources(knowledge_template_json, "AWS::IAM::Policy").values()
    ]
    for statement in (s for d in documents for s in _statements(d)):
        if any(a.startswith("bedrock:") for a in _as_list(statement["Action"])):
            assert "*" not in _as_list(statement["Resource"]), statement
            assert not any(isinstance(r, str) and r.endswith("*") for r in _as_list(statement["Resource"]))


def test_outputs(knowledge_template_json: dict[str, Any]) -> None:
    kb_id, _ = _one(knowledge_template_json, "AWS::Bedrock::KnowledgeBase")
    source_id, _ = _one(knowledge_template_json, "AWS::Bedrock::DataSource")
    outputs = knowledge_template_json["Outputs"]
    assert outputs["KnowledgeBaseId"]["Value"] == {"Fn::GetAtt": [kb_id, "KnowledgeBaseId"]}
    assert outputs["DataSourceId"]["Value"] == {"Fn::GetAtt": [source_id, "DataSourceId"]}
    assert outputs["DocumentsBucketName"]["Value"] == {"Ref": _documents_bucket_id(knowledge_template_json)}


def test_stack_exposes_knowledge_base_for_the_workflow(synthesized) -> None:
    knowledge = synthesized.stacks.knowledge
    assert knowledge.stack_name == f"SkyMarshal-{synthesized.stacks.config.stage}-Knowledge"
    assert knowledge.node.id == KNOWLEDGE_STACK_ID
    assert cdk.Token.is_unresolved(knowledge.knowledge_base_id)
    assert knowledge.resolve(knowledge.knowledge_base_id) == {"Fn::GetAtt": ["KnowledgeBase", "KnowledgeBaseId"]}
    assert knowledge.resolve(knowledge.knowledge_base_arn) == {"Fn::GetAtt": ["KnowledgeBase", "KnowledgeBaseArn"]}


def test_grant_retrieve_is_scoped_to_the_knowledge_base(make_app, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "doc.md").write_text("## Section\ntext\n")
    knowledge = KnowledgeStack(make_app(tmp_path / "out"), "K", config=AppConfig(), corpus_dir=corpus)
    role = iam.Role(knowledge, "Arbitrator", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"))
    grant = knowledge.grant_retrieve(role)
    assert grant.success
    [statement] = [knowledge.resolve(s.to_statement_json()) for s in grant.principal_statements]
    assert statement == {
        "Action": "bedrock:Retrieve",
        "Effect": "Allow",
        "Resource": {"Fn::GetAtt": ["KnowledgeBase", "KnowledgeBaseArn"]},
    }


def test_acknowledgements_stay_on_framework_functions_and_the_service_role(synthesized) -> None:
    """Each acknowledgement sits on one resource: the knowledge base role, or a resource of the two
    aws-cdk-lib framework functions (BucketDeployment upload, AwsCustomResource ingestion)."""
    knowledge = synthesized.stacks.knowledge
    framework = [c.node.path for c in knowledge.node.children if c.node.id.startswith("Custom::CDKBucketDeployment")]
    framework.append(knowledge.ingestion.grant_principal.node.scope.node.path)
    assert len(framework) == 2
    acknowledged = {
        c.node.path
        for c in knowledge.node.find_all()
        if any(e.type == cdk.Validations.ACKNOWLEDGED_RULES_METADATA_KEY for e in c.node.metadata)
    }
    assert knowledge.service_role.node.path in acknowledged
    for path in acknowledged - {knowledge.service_role.node.path}:
        assert any(path.startswith(f"{root}/") for root in framework), path


def test_with_cdk_assertions(knowledge_template: Template) -> None:
    knowledge_template.has_resource_properties(
        "AWS::Bedrock::KnowledgeBase",
        Match.object_like({"StorageConfiguration": Match.object_like({"Type": "S3_VECTORS"})}),
    )
    knowledge_template.has_resource_properties(
        "AWS::S3Vectors::Index", Match.object_like({"Dimension": 1024, "DistanceMetric": "cosine"})
    )


def test_destroy_makes_the_knowledge_buckets_deletable(make_app, tmp_path: Path) -> None:
    """Built, not synthesized: with removalPolicy=destroy both buckets go (and are emptied) with the stack."""
    knowledge = build_app(make_app(tmp_path, removalPolicy="destroy", stage="qa")).knowledge
    buckets = [c for c in knowledge.node.find_all() if isinstance(c, s3.CfnBucket)]
    assert len(buckets) == 2
    assert all(b.cfn_options.deletion_policy == CfnDeletionPolicy.DELETE for b in buckets)
    assert any(c.node.id == "AutoDeleteObjectsCustomResource" for c in knowledge.node.find_all())
