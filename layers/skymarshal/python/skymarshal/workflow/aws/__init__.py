"""The workflow's boto3 adapters: one per port of workflow/ports.py (S3, KMS, the audit table, Step Functions'
task tokens, EventBridge, SNS), plus DynamoDB's expression builders and botocore's error codes. The only room of
workflow/ that imports boto3 or botocore (besides tables.py); it must not import the workflow's logic (only the
ports it implements), so a step reads, and is tested, apart from the service."""
