"""Bedrock model ids as they are served: current Claude models are invoked through inference profiles.

An inference profile id is a geography prefix and a foundation model: `eu.anthropic.claude-sonnet-4-5-…`.
A bare foundation-model id (`anthropic.…`) is refused by Bedrock for on-demand use ("Invocation of model
ID … with on-demand throughput isn't supported"), so it is refused here, at start, on one line.

Which geography serves a role (`bedrock.geography` in behaviour.json, SKYMARSHAL_BEDROCK_GEOGRAPHY
overrides it):
- `regional`: the geography of the region the call is made from (us-* → us, eu-* → eu, ap-* → apac), so
  prompts (passenger and crew data) are processed inside that geography;
- `global`, `us`, `eu`, `apac`: that geography's profile whatever the region (global routes worldwide);
- `configured`: the profile ids exactly as written in the config.
An explicit id (SKYMARSHAL_AGENT_MODEL_ID, SKYMARSHAL_ARBITRATOR_MODEL_ID, the assistant's
SKYMARSHAL_ASSISTANT_<ROLE>_MODEL) is used as written. Every id is checked against the calling region:
a geographic profile can only be called from a region of its geography.

The same tables drive IAM (infra/functions.py): a profile is granted in the calling region, and its
foundation model in every region the profile routes to, only through that profile.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PROFILE_GEOGRAPHIES = ("global", "us", "eu", "apac")
GEOGRAPHY_CHOICES = ("regional", "configured", *PROFILE_GEOGRAPHIES)
# Region name prefix → the geography of its geographic inference profiles.
REGION_GEOGRAPHY = {"us": "us", "eu": "eu", "ap": "apac"}
# Where a profile of each geography routes requests: IAM region patterns for the foundation model. The
# destination lists change as AWS adds regions; the geography does not, and the grant is only usable through
# the profile (condition bedrock:InferenceProfileArn), so the pattern is the geography, not a region list.
DESTINATION_REGIONS = {"us": "us-*", "eu": "eu-*", "apac": "ap-*", "global": "*"}
# Commercial regions where Bedrock serves Claude through cross-region profiles: the deploy-time mapping
# (CloudFormation Mappings keyed by AWS::Region) for `regional`.
BEDROCK_REGIONS = (
    "us-east-1",
    "us-east-2",
    "us-west-1",
    "us-west-2",
    "eu-central-1",
    "eu-central-2",
    "eu-north-1",
    "eu-south-1",
    "eu-south-2",
    "eu-west-1",
    "eu-west-2",
    "eu-west-3",
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-northeast-3",
    "ap-south-1",
    "ap-south-2",
    "ap-southeast-1",
    "ap-southeast-2",
    "ap-southeast-3",
    "ap-southeast-4",
    "ap-southeast-5",
    "ap-southeast-7",
    "ap-east-2",
)
_FOUNDATION = re.compile(r"^[a-z0-9-]+\.[A-Za-z0-9_:-]+$")  # provider.model-version, e.g. anthropic.claude-…-v1:0


class ModelConfigError(ValueError):
    """A model id or geography that cannot be invoked; the message is one line naming the fix."""


@dataclass(frozen=True)
class Profile:
    geography: str  # global | us | eu | apac
    foundation_model: str  # anthropic.claude-sonnet-4-5-20250929-v1:0

    @property
    def profile_id(self) -> str:
        return f"{self.geography}.{self.foundation_model}"


def region_geography(region: str) -> str | None:
    """us-east-1 → us, eu-west-1 → eu, ap-southeast-2 → apac; None where no geographic profile exists."""
    return REGION_GEOGRAPHY.get(region.split("-", 1)[0]) if region else None


def parse_profile(model_id: str, where: str = "model id") -> Profile:
    """`eu.anthropic.claude-…` → Profile; a bare foundation-model id or a malformed id is refused."""
    text = (model_id or "").strip()
    geography, _, rest = text.partition(".")
    if geography in PROFILE_GEOGRAPHIES and _FOUNDATION.match(rest):
        return Profile(geography, rest)
    if _FOUNDATION.match(text):
        raise ModelConfigError(
            f"{where} {text!r} is a bare foundation-model id, which Bedrock refuses for on-demand use: give an "
            f"inference profile id, e.g. 'global.{text}' or 'eu.{text}' (prefixes: {', '.join(PROFILE_GEOGRAPHIES)})"
        )
    raise ModelConfigError(
        f"{where} {text!r} is not an inference profile id (<geography>.<provider>.<model>, "
        f"geography one of {', '.join(PROFILE_GEOGRAPHIES)})"
    )


def geography_for(choice: str, region: str) -> str | None:
    """The profile geography a choice means in `region` (None: keep the configured one)."""
    if choice not in GEOGRAPHY_CHOICES:
        raise ModelConfigError(
            f"SKYMARSHAL_BEDROCK_GEOGRAPHY={choice!r}: expected one of {', '.join(GEOGRAPHY_CHOICES)}"
        )
    if choice == "configured":
        return None
    if choice == "regional":
        geography = region_geography(region)
        if geography is None:
            raise ModelConfigError(
                f"region {region or '(none)'!r} has no geographic inference profile: set "
                "SKYMARSHAL_BEDROCK_GEOGRAPHY=global, or run in a us-, eu- or ap- region"
            )
        return geography
    return choice


def resolve(
    model_id: str, *, region: str, geography: str = "configured", pinned: bool = False, where: str = "model id"
) -> str:
    """The inference profile id to invoke from `region`: the configured profile moved to the chosen geography
    (unless `pinned`, an id given explicitly), checked against the region."""
    profile = parse_profile(model_id, where)
    if not pinned:
        target = geography_for(geography, region)
        if target is not None:
            profile = Profile(target, profile.foundation_model)
    check_region(profile, region, where)
    return profile.profile_id


def check_region(profile: Profile, region: str, where: str = "model id") -> None:
    if profile.geography == "global":
        return
    if region_geography(region) != profile.geography:
        raise ModelConfigError(
            f"{where} {profile.profile_id!r}: a {profile.geography}. profile can only be called from a "
            f"{profile.geography} region, not {region or '(no region)'}; use SKYMARSHAL_BEDROCK_GEOGRAPHY=regional "
            "or global"
        )
