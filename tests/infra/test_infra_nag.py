"""cdk-nag AwsSolutions: the shipped app synthesizes with no unacknowledged finding, every
acknowledgement carries a reason, and a non-compliant resource really does fail synthesis.

cdk-nag 3.x runs as a CDK policy-validation plugin inside app.synth(): an unacknowledged finding,
warning or error alike, makes synth raise RuntimeError("ValidationFailed ...") and is written to
validation-report.json. A clean run writes a report with no plugin entries, which alone cannot tell
"clean" from "did not run" — hence the canary test at the end.
"""

from __future__ import annotations

import json

import aws_cdk as cdk
import pytest
from aws_cdk import aws_s3 as s3
from cdk_nag import AwsSolutionsChecks

from infra import build_app

ACK_KEY = cdk.Validations.ACKNOWLEDGED_RULES_METADATA_KEY
MIN_REASON = 40  # characters: a reason has to say why, not just "ok"


def _violations(report: dict | None) -> list[str]:
    lines = []
    for plugin in (report or {}).get("pluginReports", []):
        for violation in plugin.get("violations", []):
            for construct in violation.get("violatingConstructs", []):
                lines.append(
                    f"{violation['ruleName']} ({violation['severity']}) at {construct['constructPath']}: "
                    f"{violation['description']}"
                )
    return lines


def _acknowledgements(app: cdk.App) -> dict[tuple[str, str], str]:
    """(construct path, rule id) -> reason, for every Validations.of(...).acknowledge(...)."""
    found = {}
    for construct in app.node.find_all():
        for entry in construct.node.metadata:
            if entry.type == ACK_KEY:
                for rule, reason in entry.data.items():
                    # aws-cdk-lib records ids without a known prefix as "Annotation::<id>".
                    found[(construct.node.path, rule.split("::", 1)[-1])] = reason
    return found


def test_synthesis_passes_cdk_nag(synthesized) -> None:
    findings = _violations(synthesized.validation_report())
    assert synthesized.error is None, f"synthesis failed: {synthesized.error}\n" + "\n".join(findings)
    assert not findings


def test_rules_evaluate_clean_on_the_construct_tree(synthesized) -> None:
    # The same pack run directly over the synthesized tree: proves the rules saw our resources
    # (including acknowledgements) rather than an empty report meaning nothing ran.
    report = AwsSolutionsChecks().validate_scope(synthesized.app)
    assert report.success, [(v.rule_name, [r.construct_path for r in v.violating_resources]) for v in report.violations]


def test_every_acknowledgement_is_a_nag_rule_with_a_reason(synthesized) -> None:
    # Today only the knowledge stack has some (framework Lambdas, the corpus prefix): each must say why.
    for (path, rule), reason in _acknowledgements(synthesized.app).items():
        assert rule.startswith("AwsSolutions-"), f"{path}: {rule} is not an AwsSolutions rule id"
        assert len(reason.strip()) >= MIN_REASON, f"{path}: {rule} needs a real reason, got {reason!r}"


def test_acknowledgements_are_written_to_the_templates(synthesized) -> None:
    # write_suppressions_to_cloud_formation: the audit trail ships with the templates.
    in_templates = {
        (rule["id"], rule["reason"])
        for path in synthesized.template_files()
        for resource in json.loads(path.read_text())["Resources"].values()
        for rule in resource.get("Metadata", {}).get("cdk_nag", {}).get("rules_to_suppress", [])
    }
    acknowledged = {(rule, reason) for (_, rule), reason in _acknowledgements(synthesized.app).items()}
    assert in_templates == acknowledged


def test_an_unacknowledged_finding_fails_synthesis(make_app, tmp_path) -> None:
    """Canary: the app as build_app wires it, plus one bucket with no logging and no TLS policy."""
    app = make_app(tmp_path)
    stacks = build_app(app)
    s3.Bucket(stacks.data, "NonCompliantCanary")
    with pytest.raises(RuntimeError, match="ValidationFailed"):
        app.synth()
    report = json.loads((tmp_path / "validation-report.json").read_text())
    flagged = {line.split(" ", 1)[0] for line in _violations(report) if "NonCompliantCanary" in line}
    assert {"AwsSolutions-S1", "AwsSolutions-S10"} <= flagged
    # Nothing but the canary is flagged: the rest of the app stays clean.
    assert all("NonCompliantCanary" in line for line in _violations(report))
