"""The two Lambda layers — third-party deps and the skymarshal library — built with no Docker.

`make layer` (`python -m infra.layers --out .build/layers`) and CDK at synth run the same two functions:
CDK through local bundling (`try_bundle` below); the Docker `command` is the documented fallback only.
Both assets use a CUSTOM hash over their real inputs, so CDK rebuilds a layer exactly when those change
and reuses `cdk.out/asset.<hash>` otherwise. Their source is the repository root (the Docker mount), which
CDK never copies or fingerprints when the hash is custom and the bundling is local.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsii
from aws_cdk import AssetHashType, BundlingOptions, ILocalBundling
from aws_cdk import aws_lambda as lambda_
from constructs import Construct

REPO_ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = REPO_ROOT / "layers/deps/requirements.txt"
CONSTRAINTS = REPO_ROOT / "constraints.txt"
PACKAGE = REPO_ROOT / "layers/skymarshal/python/skymarshal"
KNOWLEDGE = REPO_ROOT / "knowledge"

RUNTIME = lambda_.Runtime.PYTHON_3_12
ARCHITECTURE = lambda_.Architecture.X86_64
# Lambda's python3.12 runs on Amazon Linux 2023 (glibc 2.34): any manylinux wheel up to 2_34 runs there.
# manylinux2014 alone is not enough — numpy 2.4.6 (pinned in constraints.txt) ships manylinux_2_27/2_28 only —
# and pip does not expand a manylinux_2_x tag to older ones, so every tag is listed, newest first.
PLATFORMS = [*(f"manylinux_2_{minor}_x86_64" for minor in range(34, 16, -1)), "manylinux2014_x86_64"]
PIP_FLAGS = [
    *(arg for platform in PLATFORMS for arg in ("--platform", platform)),
    "--only-binary=:all:",
    "--python-version",
    "3.12",
    "--implementation",
    "cp",
    "--no-compile",
]
# Unzipped, a function plus all its layers may not exceed 250 MB; keep room for the library and the code.
LAMBDA_UNZIPPED_LIMIT = 262_144_000
LIBRARY_MARGIN = 20 * 2**20
# Never imported in Lambda: bytecode caches (/opt is read-only anyway), packages' test suites, type stubs,
# and bin/ (console scripts whose shebang names the build machine's python). *.dist-info stays whole:
# importlib.metadata reads versions (langchain, powertools) and entry points from it.
PRUNE_DIRS = ("__pycache__", "tests")
PRUNE_SUFFIXES = (".pyc", ".pyo", ".pyi")
# The CLI and the local AWS emulator: nothing the functions import at run time imports them (checked).
LIBRARY_EXCLUDES = ("cli", "local")


class LayerBuildError(RuntimeError):
    """A layer could not be built, or came out too large for Lambda."""


def pip_command(target: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        *PIP_FLAGS,
        "--target",
        str(target),
        "-r",
        str(REQUIREMENTS),
        "-c",
        str(CONSTRAINTS),
    ]


def tree_size(root: Path) -> int:
    """Bytes of every file under root: what Lambda counts as the unzipped size."""
    return sum(p.lstat().st_size for p in root.rglob("*") if p.is_file() and not p.is_symlink())


def mb(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def prune(root: Path) -> None:
    shutil.rmtree(root / "bin", ignore_errors=True)
    for dirpath, dirnames, filenames in os.walk(root):
        for name in [d for d in dirnames if d in PRUNE_DIRS]:
            shutil.rmtree(Path(dirpath, name))
            dirnames.remove(name)
        for name in filenames:
            if name.endswith(PRUNE_SUFFIXES):
                os.unlink(Path(dirpath, name))


def build_deps_layer(output_dir: Path) -> None:
    """pip-install the pinned deps for Lambda Python 3.12 x86_64 into output_dir/python, prune, check the size."""
    target = Path(output_dir) / "python"
    shutil.rmtree(target, ignore_errors=True)
    try:
        subprocess.run(pip_command(target), check=True)
    except subprocess.CalledProcessError as exc:
        raise LayerBuildError(f"deps layer: pip install failed with exit code {exc.returncode}") from exc
    prune(target)
    size, budget = tree_size(target), LAMBDA_UNZIPPED_LIMIT - LIBRARY_MARGIN
    print(f"deps layer: {mb(size)} unzipped (budget {mb(budget)})", flush=True)
    if size > budget:
        raise LayerBuildError(
            f"deps layer is {mb(size)} unzipped; Lambda allows 250 MB for a function and all its layers, and "
            f"{mb(LIBRARY_MARGIN)} of that is kept for the library layer and the function code. "
            f"Trim layers/deps/requirements.txt."
        )


def library_files() -> Iterator[tuple[Path, Path]]:
    """(path inside the layer's python/, source file): the package with its data files, and the corpus."""
    for path in sorted(PACKAGE.rglob("*")):
        rel = path.relative_to(PACKAGE)
        if (
            path.is_file()
            and rel.parts[0] not in LIBRARY_EXCLUDES
            and "__pycache__" not in rel.parts
            and not path.name.endswith(PRUNE_SUFFIXES)
        ):
            yield Path("skymarshal") / rel, path
    # The arbitrator's local BM25 fallback reads it (arbitration.knowledge.corpus_dir: skymarshal/knowledge).
    for path in sorted(KNOWLEDGE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            yield Path("skymarshal/knowledge") / path.relative_to(KNOWLEDGE), path


def build_library_layer(output_dir: Path) -> None:
    """Copy the skymarshal package (no cli/, local/, caches) and the knowledge corpus into output_dir/python."""
    target = Path(output_dir) / "python"
    shutil.rmtree(target, ignore_errors=True)
    for rel, source in library_files():
        (target / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target / rel)
    size = tree_size(target)
    print(f"library layer: {mb(size)} unzipped (budget {mb(LIBRARY_MARGIN)})", flush=True)
    if size > LIBRARY_MARGIN:
        raise LayerBuildError(f"library layer is {mb(size)} unzipped, over the {mb(LIBRARY_MARGIN)} kept for it")


def _digest(parts: list[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in parts:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()


def deps_hash() -> str:
    """Changes with the requirements, the constraints, the pip flags or the pruning rules."""
    rules = f"{PIP_FLAGS} {PRUNE_DIRS} {PRUNE_SUFFIXES}".encode()  # no paths: the same hash in any checkout
    return _digest(
        [("rules", rules), ("requirements", REQUIREMENTS.read_bytes()), ("constraints", CONSTRAINTS.read_bytes())]
    )


def library_hash() -> str:
    """Changes with any packaged file (name or content) of the library or the corpus."""
    return _digest([(rel.as_posix(), source.read_bytes()) for rel, source in library_files()])


@jsii.implements(ILocalBundling)
class LocalBuild:
    """CDK's local bundling: run a build function in this process (no Docker) into CDK's output dir."""

    def __init__(self, builder: str) -> None:
        self.builder = builder  # looked up at bundling time, so tests can replace the module's function

    def try_bundle(self, output_dir: str, *, image, **_kwargs) -> bool:
        globals()[self.builder](Path(output_dir))
        return True


def _code(builder: str, asset_hash: str, docker_script: str) -> lambda_.Code:
    return lambda_.Code.from_asset(
        str(REPO_ROOT),
        asset_hash_type=AssetHashType.CUSTOM,
        asset_hash=asset_hash,
        bundling=BundlingOptions(
            image=RUNTIME.bundling_image, local=LocalBuild(builder), command=["bash", "-c", docker_script]
        ),
    )


def deps_layer_code() -> lambda_.Code:
    # Fallback in the Lambda build image, where the platform is already right, so no --platform flags.
    return _code(
        "build_deps_layer",
        deps_hash(),
        "pip install --no-compile -r /asset-input/layers/deps/requirements.txt -c /asset-input/constraints.txt"
        " -t /asset-output/python && rm -rf /asset-output/python/bin && find /asset-output/python -depth"
        " -type d \\( -name __pycache__ -o -name tests \\) -exec rm -rf {} +",
    )


def library_layer_code() -> lambda_.Code:
    return _code(
        "build_library_layer",
        library_hash(),
        "cp -r /asset-input/layers/skymarshal/python /asset-output/ && cd /asset-output/python/skymarshal"
        " && rm -rf cli local && cp -r /asset-input/knowledge knowledge"
        " && find . -depth -name __pycache__ -exec rm -rf {} +",
    )


def lambda_layers(scope: Construct) -> tuple[lambda_.LayerVersion, lambda_.LayerVersion]:
    """(deps, library) layers for Python 3.12 on x86_64; every function takes both, deps first."""
    common: dict[str, Any] = dict(compatible_runtimes=[RUNTIME], compatible_architectures=[ARCHITECTURE])
    deps = lambda_.LayerVersion(
        scope,
        "DepsLayer",
        code=deps_layer_code(),
        **common,
        description="SkyMarshal third-party deps (layers/deps/requirements.txt, pinned)",
    )
    library = lambda_.LayerVersion(
        scope,
        "LibraryLayer",
        code=library_layer_code(),
        **common,
        description="SkyMarshal domain library (skymarshal package + knowledge corpus)",
    )
    return deps, library


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m infra.layers", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(".build/layers"), help="writes <out>/deps, <out>/skymarshal")
    args = parser.parse_args(argv)
    try:
        for name, build in (("deps", build_deps_layer), ("skymarshal", build_library_layer)):
            started = time.perf_counter()
            build(args.out / name)
            print(f"  -> {args.out / name} in {time.perf_counter() - started:.1f} s", flush=True)
    except LayerBuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
