"""The duty manager's web console: static files served by `skymarshal serve` and, in AWS, from S3/CloudFront."""

from pathlib import Path

STATIC_DIR = Path(__file__).resolve().parent / "static"
