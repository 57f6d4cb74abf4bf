"""Bedrock InvokeModel grants for inference profiles, from the same tables the runtime resolves ids with
(skymarshal/llm/profiles.py), so the profile a function calls is the profile its role names.

A cross-region profile needs two grants: the profile in the calling region, and its foundation model in
every region the profile routes to, the latter only through that profile (condition
bedrock:InferenceProfileArn). A global profile also routes through the region-less foundation-model ARN
(arn:aws:bedrock:::foundation-model/…). With `regional` the geography is the deployment region's, looked up
at deploy time in a CloudFormation mapping (the stacks are region-agnostic at synth).
"""

from __future__ import annotations

from dataclasses import dataclass

from aws_cdk import Aws, CfnMapping, Stack

from skymarshal.llm.profiles import (
    BEDROCK_REGIONS,
    DESTINATION_REGIONS,
    PROFILE_GEOGRAPHIES,
    parse_profile,
    region_geography,
)

ACTIONS = ("bedrock:InvokeModel", "bedrock:InvokeModelWithResponseStream")  # Converse, ConverseStream
MAPPING_ID = "BedrockGeography"


@dataclass(frozen=True)
class BedrockGrant:
    profile_arns: list[str]
    model_arns: list[str]
    geography: str  # what the functions get as SKYMARSHAL_BEDROCK_GEOGRAPHY (a token with `regional`)


def mapping(stack: Stack) -> CfnMapping:
    """Region → geography and the regions its profiles route to; one per stack."""
    found = stack.node.try_find_child(MAPPING_ID)
    if found is not None:
        return found  # type: ignore[return-value]
    table = {
        region: {"geography": geography, "destinations": DESTINATION_REGIONS[geography]}
        for region in BEDROCK_REGIONS
        if (geography := region_geography(region)) is not None
    }
    return CfnMapping(stack, MAPPING_ID, mapping=table)


def grant_for(
    model_ids: list[str], choice: str, *, partition: str, region: str, account: str, lookup=None
) -> BedrockGrant:
    """`lookup(key)` gives the deployment region's mapped value ('geography' | 'destinations') for `regional`."""
    profile_arns, model_arns = [], []
    for model_id in model_ids:
        profile = parse_profile(model_id, "configured model id")
        if choice == "regional":
            geography, destinations = lookup("geography"), lookup("destinations")
        else:
            geography = profile.geography if choice == "configured" else choice
            destinations = DESTINATION_REGIONS[geography]
        profile_arns.append(
            f"arn:{partition}:bedrock:{region}:{account}:inference-profile/{geography}.{profile.foundation_model}"
        )
        model_arns.append(f"arn:{partition}:bedrock:{destinations}::foundation-model/{profile.foundation_model}")
        if geography == "global":
            model_arns.append(f"arn:{partition}:bedrock:::foundation-model/{profile.foundation_model}")
    env = choice if choice in PROFILE_GEOGRAPHIES or choice == "configured" else lookup("geography")
    return BedrockGrant(sorted(set(profile_arns)), sorted(set(model_arns)), env)


def stack_grant(stack: Stack, model_ids: list[str], choice: str) -> BedrockGrant:
    table = mapping(stack) if choice == "regional" else None
    return grant_for(
        model_ids,
        choice,
        partition=stack.partition,
        region=stack.region,
        account=stack.account,
        lookup=(lambda key: table.find_in_map(Aws.REGION, key)) if table else None,
    )
