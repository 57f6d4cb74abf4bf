"""The ObjectStore port on S3 (the artifacts bucket, the Object Lock anchor bucket)."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from ...data import aws as clients
from .errors import service_error

_MISSING = ("NoSuchKey", "NoSuchVersion", "404")


class S3Objects:
    """ObjectStore over an S3 client (the default credentials' unless one is given, e.g. the emulated account's)."""

    def __init__(self, client: Any = None):
        self._client = client

    @property
    def client(self) -> Any:
        self._client = self._client or clients.client("s3")
        return self._client

    def put(self, bucket: str, key: str, body: bytes, *, checksum: bool = False) -> None:
        extra = {"ChecksumAlgorithm": "SHA256"} if checksum else {}
        try:
            self.client.put_object(Bucket=bucket, Key=key, Body=body, ContentType="application/json", **extra)
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc

    def get(self, bucket: str, key: str, *, version_id: str | None = None) -> bytes | None:
        extra = {"VersionId": version_id} if version_id else {}
        try:
            return bytes(self.client.get_object(Bucket=bucket, Key=key, **extra)["Body"].read())
        except ClientError as exc:
            if exc.response["Error"]["Code"] in _MISSING:
                return None
            raise service_error(exc) from exc
        except BotoCoreError as exc:
            raise service_error(exc) from exc

    def keys(self, bucket: str, prefix: str) -> list[str]:
        try:
            pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
            return sorted(o["Key"] for page in pages for o in page.get("Contents", []))
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc

    def versions(self, bucket: str, prefix: str) -> list[tuple[str, str]]:
        try:
            pages = self.client.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix)
            return [(v["Key"], v["VersionId"]) for page in pages for v in page.get("Versions", [])]
        except (ClientError, BotoCoreError) as exc:
            raise service_error(exc) from exc
