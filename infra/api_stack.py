"""The duty manager's API and console: Cognito, API Gateway (REST), the streaming function, CloudFront.

One origin for everything the browser talks to, so there is no CORS to get wrong:
  https://<distribution>/          the console (S3, origin access control)
  https://<distribution>/api/*     API Gateway REST API → the API Lambda (Cognito user pool authorizer)
  https://<distribution>/stream/*  the streaming function's URL (RESPONSE_STREAM: live progress, assistant)
The user pool has the three groups the API's roles are (DutyManager, Observer, Admin); the console signs in
against its public app client. Only the OpenAPI document is public.
"""

from __future__ import annotations

from typing import Any

from aws_cdk import CfnOutput, Duration, RemovalPolicy, Stack
from aws_cdk import aws_apigateway as apigw
from aws_cdk import aws_cloudfront as cloudfront
from aws_cdk import aws_cloudfront_origins as origins
from aws_cdk import aws_cognito as cognito
from aws_cdk import aws_logs as logs
from aws_cdk import aws_s3 as s3
from aws_cdk import aws_s3_deployment as s3deploy
from constructs import Construct

from skymarshal.api.roles import Role
from skymarshal.console import STATIC_DIR as CONSOLE_DIR

from .api_functions import ApiFunctionsConstruct
from .config import AppConfig
from .data_stack import DataStack
from .nag import acknowledge, cfn_resource, default_policy, iam5
from .workflow_stack import WorkflowStack

ROLE_DESCRIPTIONS = {
    Role.DUTY_MANAGER: "approves, overrides and reports disruptions",
    Role.OBSERVER: "reads runs, decisions and audit trails",
    Role.ADMIN: "configures SkyMarshal; reads everything",
}


class ApiStack(Stack):
    def __init__(
        self,
        scope: Construct,
        construct_id: str,
        *,
        config: AppConfig,
        data: DataStack,
        workflow: WorkflowStack,
        **kwargs,
    ) -> None:
        super().__init__(scope, construct_id, description="SkyMarshal duty manager API, console and sign-in", **kwargs)
        self.user_pool, self.client = self._identity(config)
        self.fns = ApiFunctionsConstruct(
            self, "Functions", config=config, data=data, workflow=workflow, pool=self.user_pool, client=self.client
        ).functions
        self.api = self._rest_api()
        self.distribution, self.console_bucket = self._console()
        CfnOutput(self, "ConsoleUrl", value=f"https://{self.distribution.distribution_domain_name}/")
        CfnOutput(self, "ApiUrl", value=self.api.url)
        CfnOutput(self, "UserPoolId", value=self.user_pool.user_pool_id)
        CfnOutput(self, "UserPoolClientId", value=self.client.user_pool_client_id)

    def _identity(self, config: AppConfig) -> tuple[cognito.UserPool, cognito.UserPoolClient]:
        pool = cognito.UserPool(
            self,
            "DutyManagers",
            user_pool_name=f"SkyMarshal-{config.stage}-duty-managers",
            self_sign_up_enabled=False,
            sign_in_aliases=cognito.SignInAliases(username=True, email=True),
            standard_attributes=cognito.StandardAttributes(
                fullname=cognito.StandardAttribute(required=True, mutable=True)
            ),
            password_policy=cognito.PasswordPolicy(
                min_length=12, require_digits=True, require_lowercase=True, require_uppercase=True, require_symbols=True
            ),
            mfa=cognito.Mfa.REQUIRED,
            mfa_second_factor=cognito.MfaSecondFactor(otp=True, sms=False),
            account_recovery=cognito.AccountRecovery.EMAIL_ONLY,
            feature_plan=cognito.FeaturePlan.PLUS,
            standard_threat_protection_mode=cognito.StandardThreatProtectionMode.FULL_FUNCTION,
            removal_policy=config.cdk_removal_policy,
        )
        for role, description in ROLE_DESCRIPTIONS.items():
            cognito.CfnUserPoolGroup(
                self,
                f"Group{role.value}",
                user_pool_id=pool.user_pool_id,
                group_name=role.value,
                description=description,
            )
        client = pool.add_client(
            "Console",
            generate_secret=False,
            prevent_user_existence_errors=True,
            auth_flows=cognito.AuthFlow(user_password=True, user_srp=True),
            id_token_validity=Duration.hours(8),
            access_token_validity=Duration.hours(8),
        )
        return pool, client

    def _rest_api(self) -> apigw.RestApi:
        access_logs = logs.LogGroup(
            self, "ApiAccessLogs", retention=logs.RetentionDays.ONE_YEAR, removal_policy=RemovalPolicy.DESTROY
        )
        api = apigw.RestApi(
            self,
            "DutyManagerApi",
            description="SkyMarshal duty manager API (see /api/openapi.json)",
            cloud_watch_role=True,
            cloud_watch_role_removal_policy=RemovalPolicy.DESTROY,
            deploy_options=apigw.StageOptions(
                stage_name="prod",
                tracing_enabled=True,
                logging_level=apigw.MethodLoggingLevel.INFO,
                metrics_enabled=True,
                throttling_rate_limit=50,
                throttling_burst_limit=100,
                access_log_destination=apigw.LogGroupLogDestination(access_logs),
                access_log_format=apigw.AccessLogFormat.json_with_standard_fields(
                    caller=False,
                    http_method=True,
                    ip=True,
                    protocol=True,
                    request_time=True,
                    resource_path=True,
                    response_length=True,
                    status=True,
                    user=True,
                ),
            ),
        )
        authorizer = apigw.CognitoUserPoolsAuthorizer(
            self,
            "CognitoAuthorizer",
            cognito_user_pools=[self.user_pool],
            identity_source="method.request.header.Authorization",
        )
        integration = apigw.LambdaIntegration(self.fns.api)
        base = api.root.add_resource("api")
        document = base.add_resource("openapi.json").add_method("GET", integration)
        base.add_proxy(
            default_integration=integration,
            any_method=True,
            default_method_options=apigw.MethodOptions(
                authorizer=authorizer, authorization_type=apigw.AuthorizationType.COGNITO
            ),
        )
        for finding in ("AwsSolutions-APIG4", "AwsSolutions-COG4"):
            acknowledge(
                document,
                finding,
                "the OpenAPI document is public on purpose: clients and contract tests "
                "read it before signing in; it holds no data",
            )
        acknowledge(
            api,
            "AwsSolutions-APIG2",
            "every route validates its body and parameters in the Lambda against "
            "the same pydantic models the OpenAPI document is generated from "
            "(Powertools enable_validation), answering 400 with the field",
        )
        acknowledge(
            api,
            "AwsSolutions-APIG3",
            "no WAF web ACL in this stack: only Cognito users of three groups can "
            "call it; attach the organisation's ACL to the stage where one exists",
        )
        acknowledge(
            api.node.find_child("CloudWatchRole"),
            "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:"
            "policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]",
            "API Gateway's account-level "
            "CloudWatch role (cloud_watch_role=True) is the AWS managed push-to-logs policy by design",
        )
        return api

    def _console(self) -> tuple[cloudfront.Distribution, s3.Bucket]:
        bucket = s3.Bucket(
            self,
            "ConsoleSite",
            block_public_access=s3.BlockPublicAccess.BLOCK_ALL,
            encryption=s3.BucketEncryption.S3_MANAGED,
            enforce_ssl=True,
            versioned=True,
            removal_policy=RemovalPolicy.DESTROY,
            auto_delete_objects=True,
        )
        self.console_site_logical_id = cfn_resource(bucket).logical_id
        uncached: dict[str, Any] = {
            "cache_policy": cloudfront.CachePolicy.CACHING_DISABLED,
            "origin_request_policy": cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
            "allowed_methods": cloudfront.AllowedMethods.ALLOW_ALL,
            "viewer_protocol_policy": cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
        }
        distribution = cloudfront.Distribution(
            self,
            "Console",
            comment="SkyMarshal console, API and streams on one origin",
            default_root_object="index.html",
            default_behavior=cloudfront.BehaviorOptions(
                origin=origins.S3BucketOrigin.with_origin_access_control(bucket),
                viewer_protocol_policy=cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
            ),
            additional_behaviors={
                "/api/*": cloudfront.BehaviorOptions(
                    origin=origins.RestApiOrigin(self.api, origin_path=""), **uncached
                ),
                "/stream/*": cloudfront.BehaviorOptions(
                    origin=origins.FunctionUrlOrigin(self.fns.stream_url), **uncached
                ),
            },
        )
        s3deploy.BucketDeployment(
            self,
            "ConsoleFiles",
            destination_bucket=bucket,
            distribution=distribution,
            distribution_paths=["/*"],
            sources=[
                s3deploy.Source.asset(str(CONSOLE_DIR), exclude=["__pycache__"]),
                s3deploy.Source.json_data(
                    "config.json",
                    {
                        "mode": "aws",
                        "api": "/api",
                        "stream": "/stream",
                        "devLogin": False,
                        "assistant": True,
                        "region": self.region,
                        "userPoolClientId": self.client.user_pool_client_id,
                    },
                ),
            ],
        )
        self._acknowledge_deployment_function()
        acknowledge(
            bucket,
            "AwsSolutions-S1",
            "the console's static files only; CloudFront is the one reader "
            "(origin access control) and its requests are in the API's logs",
        )
        for finding, reason in (
            ("AwsSolutions-CFR1", "duty managers work from stations worldwide: no geo restriction"),
            ("AwsSolutions-CFR2", "no WAF web ACL in this stack; the API behind it needs a Cognito token"),
            ("AwsSolutions-CFR3", "API Gateway access logs and Lambda logs record every request that matters"),
            (
                "AwsSolutions-CFR4",
                "the default CloudFront certificate (no custom domain in this stack) cannot "
                "pin a minimum TLS version; set a domain and certificate to enforce TLS 1.2",
            ),
        ):
            acknowledge(distribution, finding, reason)
        return distribution, bucket

    def _acknowledge_deployment_function(self) -> None:
        """BucketDeployment's singleton Lambda (CDK's own code) copies the console files from the asset bucket."""
        function = next(c for c in self.node.children if c.node.id.startswith("Custom::CDKBucketDeployment"))
        why = "CDK's BucketDeployment function copying the console's files from the CDK asset bucket into the site"
        acknowledge(cfn_resource(function), "AwsSolutions-L1", f"{why}; its runtime is CDK's choice")
        role = function.node.find_child("ServiceRole")
        acknowledge(
            role,
            "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]",
            f"{why}: logs only",
        )
        policy = default_policy(role)
        for what in (
            "Action::s3:GetBucket*",
            "Action::s3:GetObject*",
            "Action::s3:List*",
            "Action::s3:Abort*",
            "Action::s3:DeleteObject*",
            "Resource::*",
            f"Resource::<{self.resolve(self.console_site_logical_id)}.Arn>/*",
            "Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*",
        ):
            iam5(
                policy,
                what,
                f"{why}: the grants BucketDeployment makes on those two buckets (and CloudFront "
                "invalidation, which has no resource-level permissions)",
            )
