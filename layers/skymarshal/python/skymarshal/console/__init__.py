"""The duty manager's web console: static files served by `skymarshal serve` and, in AWS, from S3/CloudFront."""
