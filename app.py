#!/usr/bin/env python3
"""CDK entry point: `npx cdk synth|deploy` (through cdk.json) or `python app.py` with CDK_OUTDIR set.

Context (cdk.json defaults, `-c key=value` to override): stage, tablePrefix, removalPolicy
(retain|destroy), checkpointExpiryDays.
"""

import aws_cdk as cdk

from infra import build_app, cdk_json_context

# cdk.json is read here too so that `python app.py` gets the same feature flags and defaults as the
# CLI; context the CLI passes (cdk.json, cdk.context.json, -c) overrides these.
app = cdk.App(context=cdk_json_context())
build_app(app)
app.synth()
