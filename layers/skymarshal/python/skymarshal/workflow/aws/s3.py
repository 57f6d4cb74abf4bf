"""The ObjectStore port on S3 (the artifacts bucket, the Object Lock anchor bucket)."""

from __future__ import annotations

from .errors import Adapter, call

_MISSING = {"NoSuchKey": None, "NoSuchVersion": None, "404": None}


class S3Objects(Adapter):
    """ObjectStore over an S3 client."""

    service = "s3"

    def put(self, bucket: str, key: str, body: bytes, *, checksum: bool = False) -> None:
        extra = {"ChecksumAlgorithm": "SHA256"} if checksum else {}
        call(lambda: self.client.put_object(Bucket=bucket, Key=key, Body=body, ContentType="application/json", **extra))

    def get(self, bucket: str, key: str, *, version_id: str | None = None) -> bytes | None:
        extra = {"VersionId": version_id} if version_id else {}
        return call(lambda: bytes(self.client.get_object(Bucket=bucket, Key=key, **extra)["Body"].read()), _MISSING)

    def keys(self, bucket: str, prefix: str) -> list[str]:
        pages = self.client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix)
        return call(lambda: sorted(o["Key"] for page in pages for o in page.get("Contents", [])))

    def delete(self, bucket: str, key: str) -> None:
        call(lambda: self.client.delete_object(Bucket=bucket, Key=key))

    def versions(self, bucket: str, prefix: str) -> list[tuple[str, str]]:
        pages = self.client.get_paginator("list_object_versions").paginate(Bucket=bucket, Prefix=prefix)
        return call(lambda: [(v["Key"], v["VersionId"]) for page in pages for v in page.get("Versions", [])])
