"""CDK assertions on the API stack: sign-in, the REST API's authorizer, least privilege for the API and
streaming functions, the streaming function URL, and the console's single origin."""

from __future__ import annotations

import json
from typing import Any

from aws_cdk.assertions import Match, Template

from skymarshal.api.roles import Role


def _resources(template: dict[str, Any], type_: str) -> dict[str, dict[str, Any]]:
    return {k: v for k, v in template["Resources"].items() if v["Type"] == type_}


def _function(template: dict[str, Any], service: str) -> tuple[str, dict[str, Any]]:
    return next(
        (k, v)
        for k, v in _resources(template, "AWS::Lambda::Function").items()
        if v["Properties"].get("Environment", {}).get("Variables", {}).get("POWERTOOLS_SERVICE_NAME") == service
    )


def _statements(template: dict[str, Any], function_logical: str) -> list[dict[str, Any]]:
    role = template["Resources"][function_logical]["Properties"]["Role"]["Fn::GetAtt"][0]
    return [
        st
        for policy in _resources(template, "AWS::IAM::Policy").values()
        if {"Ref": role} in policy["Properties"]["Roles"]
        for st in policy["Properties"]["PolicyDocument"]["Statement"]
    ]


def _actions(statements: list[dict[str, Any]]) -> set[str]:
    return {a for st in statements for a in (st["Action"] if isinstance(st["Action"], list) else [st["Action"]])}


def test_user_pool_has_the_three_groups_no_self_sign_up_and_mfa(api_template: Template) -> None:
    api_template.has_resource_properties(
        "AWS::Cognito::UserPool",
        {
            "AdminCreateUserConfig": {"AllowAdminCreateUserOnly": True},
            "MfaConfiguration": "ON",
            "UserPoolAddOns": {"AdvancedSecurityMode": "ENFORCED"},
        },
    )
    groups = {
        g["Properties"]["GroupName"] for g in _resources(api_template.to_json(), "AWS::Cognito::UserPoolGroup").values()
    }
    assert groups == {r.value for r in Role}
    api_template.has_resource_properties("AWS::Cognito::UserPoolClient", {"GenerateSecret": False})


def test_every_api_route_but_the_document_needs_a_cognito_token(api_template_json) -> None:
    methods = _resources(api_template_json, "AWS::ApiGateway::Method")
    authorized = [m for m in methods.values() if m["Properties"]["AuthorizationType"] == "COGNITO_USER_POOLS"]
    public = [m for m in methods.values() if m["Properties"]["AuthorizationType"] == "NONE"]
    assert authorized and [m["Properties"]["HttpMethod"] for m in public] == ["GET"]
    resources = {
        r["Properties"]["PathPart"] for r in _resources(api_template_json, "AWS::ApiGateway::Resource").values()
    }
    assert resources == {"api", "openapi.json", "{proxy+}"}
    stage = next(iter(_resources(api_template_json, "AWS::ApiGateway::Stage").values()))["Properties"]
    assert stage["TracingEnabled"] and stage["AccessLogSetting"]["DestinationArn"]


def test_api_function_may_decide_and_append_to_the_audit_but_never_update_or_scan(api_template_json) -> None:
    logical, _ = _function(api_template_json, "skymarshal-api")
    statements = _statements(api_template_json, logical)
    actions = _actions(statements)
    assert {
        "states:StartExecution",
        "states:SendTaskSuccess",
        "states:DescribeExecution",
        "states:GetExecutionHistory",
        "kms:Sign",
        "kms:Verify",
    } <= actions
    assert "dynamodb:Scan" not in actions and not any(
        a.endswith("*") and a.startswith(("dynamodb", "states")) for a in actions
    )
    audit = [st for st in statements if "AuditTrail" in json.dumps(st["Resource"])]
    assert audit and _actions(audit) == {"dynamodb:PutItem", "dynamodb:GetItem", "dynamodb:Query"}


def test_api_function_reads_the_tables_the_gantt_and_the_board_are_drawn_from_and_writes_none_of_them(
    api_template_json,
) -> None:
    logical, _ = _function(api_template_json, "skymarshal-api")
    statements = _statements(api_template_json, logical)
    board = ("AircraftAvailability", "MaintenanceWorkOrders", "CrewMembers")
    for table in ("flights", "CrewRoster", "bookings", "AirportReference", *board):
        on_table = [st for st in statements if table.lower() in json.dumps(st["Resource"]).lower()]
        assert on_table, table
        assert {"dynamodb:GetItem", "dynamodb:Query"} <= _actions(on_table) and not _actions(on_table) & {
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem",
            "dynamodb:Scan",
        }, table


def test_stream_function_reads_only(api_template_json) -> None:
    logical, fn = _function(api_template_json, "skymarshal-stream")
    actions = _actions(_statements(api_template_json, logical))
    assert not actions & {
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:DeleteItem",
        "states:StartExecution",
        "states:SendTaskSuccess",
        "kms:Sign",
        "s3:PutObject",
    }
    variables = fn["Properties"]["Environment"]["Variables"]
    assert (
        variables["AWS_LWA_INVOKE_MODE"] == "response_stream"
        and variables["AWS_LAMBDA_EXEC_WRAPPER"] == "/opt/bootstrap"
    )
    assert fn["Properties"]["Handler"] == "run.sh"
    assert any("LambdaAdapterLayerX86" in json.dumps(layer) for layer in fn["Properties"]["Layers"])


def test_stream_function_url_streams(api_template: Template) -> None:
    api_template.has_resource_properties("AWS::Lambda::Url", {"InvokeMode": "RESPONSE_STREAM", "AuthType": "NONE"})


def test_console_api_and_streams_share_one_cloudfront_origin(api_template: Template) -> None:
    api_template.has_resource_properties(
        "AWS::CloudFront::Distribution",
        {
            "DistributionConfig": Match.object_like(
                {
                    "DefaultRootObject": "index.html",
                    "CacheBehaviors": Match.array_with(
                        [
                            Match.object_like({"PathPattern": "/api/*", "AllowedMethods": Match.array_with(["POST"])}),
                            Match.object_like(
                                {"PathPattern": "/stream/*", "AllowedMethods": Match.array_with(["POST"])}
                            ),
                        ]
                    ),
                }
            )
        },
    )
    api_template.has_resource_properties(
        "AWS::S3::Bucket",
        {
            "PublicAccessBlockConfiguration": {
                "BlockPublicAcls": True,
                "BlockPublicPolicy": True,
                "IgnorePublicAcls": True,
                "RestrictPublicBuckets": True,
            }
        },
    )
