"""cfn-lint over every synthesized template: no errors, and no warning without a written reason."""

from __future__ import annotations

from cfnlint.api import ManualArgs, lint_file

# Rule id -> why the warning is acceptable. Add an entry (with a reason) rather than
# loosening the test when a CDK-generated resource trips a warning.
ALLOWED_WARNINGS: dict[str, str] = {
    "W3005": "aws-cdk-lib's framework Lambdas (BucketDeployment, AwsCustomResource) declare DependsOn on "
    "their service role as well as GetAtt-ing it; the redundant edge is CDK's, and harmless"
}

# Region(s) whose resource specs the templates are checked against; add the regions you deploy to
# (each one is another full lint pass). The data stack uses nothing region-specific.
REGIONS = ["us-east-1"]


def test_templates_were_written(synthesized) -> None:
    assert synthesized.template_files(), "synthesis wrote no template"


def test_cfn_lint_clean(synthesized) -> None:
    problems = []
    for path in synthesized.template_files():
        for match in lint_file(path, config=ManualArgs(regions=REGIONS)):
            rule = match.rule.id
            if rule.startswith("E") or (rule.startswith("W") and rule not in ALLOWED_WARNINGS):
                problems.append(f"{path.name}: {rule} {match.message} ({'/'.join(map(str, match.path))})")
    assert not problems, "cfn-lint:\n" + "\n".join(problems)
