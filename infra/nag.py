"""cdk-nag acknowledgements: one finding, on the construct it is about, with the reason it is acceptable.

cdk-nag 3.x matches an acknowledgement by its exact finding id, e.g.
`AwsSolutions-IAM5[Resource::<FunctionsCollate221B8CAC.Arn>:*]`, where the part in brackets is the
policy's action or resource flattened the way cdk-nag prints it (`flattenCfnReference`): `<Id.Attr>` for a
GetAtt, `<Id>` for a Ref, Fn::Join concatenated, anything else as compact JSON. `references` builds that
text for a resource attribute, including one read across stacks.
"""

from __future__ import annotations

import hashlib
import json

import aws_cdk as cdk
from constructs import IConstruct

CROSS_STACK_CONTEXT = "@aws-cdk/core:defaultCrossStackReferences"


def acknowledge(construct: IConstruct, finding: str, reason: str) -> None:
    cdk.Validations.of(construct).acknowledge(cdk.Acknowledgment(id=finding, reason=reason))


def iam5(construct: IConstruct, what: str, reason: str) -> None:
    """Acknowledge one wildcard (`Action::...` or `Resource::...`) of an IAM policy."""
    acknowledge(construct, f"AwsSolutions-IAM5[{what}]", reason)


def cfn_resource(construct: IConstruct | None) -> cdk.CfnResource:
    """The CloudFormation resource of a construct (its default child, e.g. an L2's `Resource`)."""
    child = construct.node.default_child if construct is not None else None
    if not isinstance(child, cdk.CfnResource):
        where = construct.node.path if construct is not None else "no construct"
        raise TypeError(f"{where}: no CloudFormation resource as the default child")
    return child


def default_policy(role: IConstruct | None) -> cdk.CfnResource:
    """The CloudFormation policy aws-cdk-lib's grants write for a role (its `DefaultPolicy` child)."""
    if role is None:
        raise TypeError("no role: the grants' policy belongs to a role")
    return cfn_resource(role.node.find_child("DefaultPolicy"))


def _unique_id(*components: str) -> str:
    """aws-cdk-lib's makeUniqueId (core/lib/private/uniqueid.js) for a path of two or more components."""
    human = "".join("".join(ch for ch in c if ch.isascii() and ch.isalnum()) for c in components if c != "Resource")
    digest = hashlib.md5("/".join(components).encode()).hexdigest()[:8].upper()
    return human[:240] + digest


def references(consumer: cdk.Stack, target: cdk.CfnResource, attribute: str) -> list[str]:
    """How cdk-nag prints `target.attribute` used in `consumer`'s template: one form, or two across stacks.

    In its own stack that is `<LogicalId.Attribute>`. Across stacks the text depends on when cdk-nag
    runs. During `app.synth()` (the validation plugin) references are already resolved: cdk.json sets
    weak references (`@aws-cdk/core:defaultCrossStackReferences: weak`), which aws-cdk-lib renders as
    Fn::GetStackOutput of an output it adds to the producer under `Publish/Output<resolved reference>`,
    and cdk-nag, which has no case for that function, prints it as JSON. On a tree not synthesized yet
    (`AwsSolutionsChecks().validate_scope(app)` right after build_app) the token still reads as a
    GetAtt. A finding acknowledged in both forms is clean either way. Strong references
    (Fn::ImportValue) are not handled: if the flag changes, this raises at synth.
    """
    producer = cdk.Stack.of(target)
    logical_id = producer.resolve(target.logical_id)
    local = f"<{logical_id}.{attribute}>"
    if producer is consumer:
        return [local]
    strength = consumer.node.try_get_context(CROSS_STACK_CONTEXT)
    if strength != "weak":
        raise ValueError(f"infra.nag.references handles weak cross-stack references only, not {strength!r}")
    resolved = json.dumps({"Fn::GetAtt": [logical_id, attribute]}, separators=(",", ":"))
    output_name = _unique_id("Publish", f"Output{resolved}")
    get_stack_output = {
        "Fn::GetStackOutput": {
            "StackName": producer.stack_name,
            "Region": consumer.resolve(producer.region),
            "OutputName": output_name,
        }
    }
    return [local, json.dumps(get_stack_output, separators=(",", ":"))]
