"""Who may touch the audit anchors' Object Lock bucket, by evaluation: the synthesized roles (every function of every
stack) and the bucket's policy, asked with iam-simulate about the calls that matter (iam_policies.py).

Learn puts an anchor under anchors/ and can do nothing else there: not read one, delete or re-retain it, nor write
beside the prefix. The API (which serves `audit verify`) lists and reads the versions under anchors/ and cannot
write or delete. No
other function reaches the bucket at all. The recorded run (test_iam_enforced.py) proves the calls the code
really makes are granted; this proves what must stay refused.
"""

from __future__ import annotations

import pytest
from iam_policies import LocalNames, evaluate, function_policies, resource_policies, without

from infra import API_STACK_ID, WORKFLOW_STACK_ID
from skymarshal.data.schema import Naming
from skymarshal.local.iam_calls import ACCOUNT, Call
from skymarshal.workflow.audit.anchor import ANCHOR_BUCKET_ENV, anchor_key

ANCHORS = "skymarshal-audit-anchors-test"
ANCHOR = f"arn:aws:s3:::{ANCHORS}/{anchor_key('EY123-20270120', 7)}"
BESIDE = f"arn:aws:s3:::{ANCHORS}/exports/EY123-20270120.json"  # in the bucket, outside anchors/
BUCKET = f"arn:aws:s3:::{ANCHORS}"
LISTING = (("s3:prefix", "anchors/EY123-20270120/"),)  # what locked_anchors asks for
NAMES = LocalNames(
    naming=Naming(),
    bucket="skymarshal-artifacts-test",
    audit_key_arn=f"arn:aws:kms:us-east-1:{ACCOUNT}:key/audit",
    state_machine_arn=f"arn:aws:states:us-east-1:{ACCOUNT}:stateMachine:SkyMarshal-test",
    anchor_bucket=ANCHORS,
)
# Everything a role could do to an anchor besides writing or reading it.
TAMPERING = (
    "s3:DeleteObject",
    "s3:DeleteObjectVersion",
    "s3:PutObjectRetention",
    "s3:PutObjectLegalHold",
    "s3:BypassGovernanceRetention",
)


def _function(template: dict, handler: str) -> str:
    return next(
        k
        for k, r in template["Resources"].items()
        if r["Type"] == "AWS::Lambda::Function" and r["Properties"].get("Handler") == handler
    )


@pytest.fixture(scope="module")
def roles(synthesized):
    """(policies by function, resource policies, Learn's logical id, the API's logical id)."""
    learn = _function(synthesized.template_json(WORKFLOW_STACK_ID), "handler.learn")
    api = _function(synthesized.template_json(API_STACK_ID), "handler.handler")
    return function_policies(synthesized.outdir, NAMES), resource_policies(synthesized.outdir, NAMES), learn, api


def _verdicts(calls: list[Call], policies, governed) -> dict[Call, str]:
    return {call: verdict for call, verdict, _ in evaluate(calls, policies, governed)}


def test_learn_puts_an_anchor_and_can_neither_read_delete_nor_retain_one_nor_write_beside_it(roles):
    policies, governed, learn, _ = roles
    allowed = Call(learn, "s3:PutObject", ANCHOR)
    refused = [
        *(Call(learn, action, ANCHOR) for action in (*TAMPERING, "s3:GetObject", "s3:GetObjectVersion")),
        Call(learn, "s3:PutObject", BESIDE),
        Call(learn, "s3:GetObject", BESIDE),
        Call(learn, "s3:ListBucket", BUCKET, LISTING),
        Call(learn, "s3:ListBucketVersions", BUCKET, LISTING),
        Call(learn, "s3:PutBucketObjectLockConfiguration", BUCKET),
    ]
    verdicts = _verdicts([allowed, *refused], policies, governed)
    assert verdicts[allowed] == "Allowed"
    assert {c.action + " " + c.resource: verdicts[c] for c in refused if verdicts[c] == "Allowed"} == {}


def test_the_verifier_lists_and_reads_anchors_and_can_neither_write_nor_delete_one(roles):
    policies, governed, _, api = roles
    allowed = [Call(api, "s3:ListBucketVersions", BUCKET, LISTING), Call(api, "s3:GetObjectVersion", ANCHOR)]
    refused = [
        *(Call(api, action, ANCHOR) for action in ("s3:PutObject", *TAMPERING)),
        Call(api, "s3:GetObjectVersion", BESIDE),
        Call(api, "s3:ListBucketVersions", BUCKET),  # the whole bucket: only anchors/ may be listed
        Call(api, "s3:ListBucketVersions", BUCKET, (("s3:prefix", "exports/"),)),
        Call(api, "s3:PutBucketObjectLockConfiguration", BUCKET),
    ]
    verdicts = _verdicts([*allowed, *refused], policies, governed)
    assert [verdicts[c] for c in allowed] == ["Allowed", "Allowed"]
    assert {c.action + " " + str(c.context): verdicts[c] for c in refused if verdicts[c] == "Allowed"} == {}


def test_no_other_function_reaches_the_anchor_bucket(roles):
    policies, governed, learn, api = roles
    others = sorted(set(policies) - {learn, api})
    assert len(others) > 10, others  # every agent, step, the stream, alerts: read from both templates
    probes = [
        Call(fn, action, resource, context)
        for fn in others
        for action, resource, context in (
            ("s3:PutObject", ANCHOR, ()),
            ("s3:GetObject", ANCHOR, ()),
            ("s3:GetObjectVersion", ANCHOR, ()),
            ("s3:DeleteObject", ANCHOR, ()),
            ("s3:ListBucket", BUCKET, LISTING),
            ("s3:ListBucketVersions", BUCKET, LISTING),
        )
    ]
    verdicts = _verdicts(probes, policies, governed)
    assert [f"{c.function}: {c.action}" for c in probes if verdicts[c] == "Allowed"] == []


def test_the_anchor_grants_are_what_allow_it_and_plain_http_is_refused_anyway(roles):
    """Each allowed call fails without its statement (the evaluation can fail), and the bucket's policy refuses
    a request that is not over TLS, whatever the role allows."""
    policies, governed, learn, api = roles
    put, get = Call(learn, "s3:PutObject", ANCHOR), Call(api, "s3:GetObjectVersion", ANCHOR)
    trimmed = {
        **policies,
        learn: without(policies[learn], "s3:PutObject"),
        api: without(policies[api], "s3:GetObjectVersion"),
    }
    assert list(_verdicts([put, get], trimmed, governed).values()) == ["ImplicitlyDenied"] * 2
    http = (("aws:SecureTransport", "false"),)
    over_http = [Call(learn, "s3:PutObject", ANCHOR, http), Call(api, "s3:GetObjectVersion", ANCHOR, http)]
    assert list(_verdicts(over_http, policies, governed).values()) == ["ExplicitlyDenied"] * 2


def test_learn_and_the_api_are_told_the_bucket_and_no_other_function_is(synthesized):
    told = {}
    for stack in (WORKFLOW_STACK_ID, API_STACK_ID):
        for resource in synthesized.template_json(stack)["Resources"].values():
            if resource["Type"] == "AWS::Lambda::Function":
                env = resource["Properties"].get("Environment", {}).get("Variables", {})
                if ANCHOR_BUCKET_ENV in env:
                    told[resource["Properties"]["Handler"]] = env[ANCHOR_BUCKET_ENV]["Fn::GetStackOutput"]["OutputName"]
    assert set(told) == {"handler.learn", "handler.handler"}
    assert len(set(told.values())) == 1 and "AuditAnchorsBucket" in next(iter(told.values()))
