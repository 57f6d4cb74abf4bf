"""The two Lambda layers: what goes in them, the pip command, and CDK building them at synth (no Docker).

The real deps build downloads ~130 MB of wheels: it runs only with SKYMARSHAL_TEST_LAYER_BUILD=1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import uuid
from pathlib import Path

import pytest

os.environ.setdefault("JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION", "20")

import aws_cdk as cdk
from aws_cdk.assertions import Match, Template

from infra import layers


def _flag_values(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == flag]


# ------------------------------------------------------------------------------------ library layer


@pytest.fixture(scope="module")
def library_layer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("library-layer")
    layers.build_library_layer(out)
    return out / "python"


def test_library_layer_has_the_package_its_data_and_the_corpus(library_layer: Path) -> None:
    package = library_layer / "skymarshal"
    assert (package / "handlers" / "agent.py").is_file()
    assert (package / "llm" / "behaviour.json").is_file()
    assert sorted(p.name for p in (package / "llm" / "prompts").glob("*.md")) == sorted(
        p.name for p in (layers.PACKAGE / "llm" / "prompts").glob("*.md")
    )
    assert {p.name for p in (package / "knowledge").glob("*.md")} == {p.name for p in layers.KNOWLEDGE.glob("*.md")}
    assert not list(library_layer.rglob("__pycache__")) and not list(library_layer.rglob("*.pyc"))
    assert not (package / "cli").exists() and not (package / "local").exists()


def test_library_layer_imports_without_cli_and_local_and_finds_its_corpus(library_layer: Path) -> None:
    """Every packaged module imports from the layer alone (deps from the venv), and the corpus is found."""
    script = textwrap.dedent("""
        import importlib, pathlib, sys
        import skymarshal
        root = pathlib.Path(skymarshal.__file__).parent
        assert str(root).startswith(sys.argv[1]), root
        for path in sorted(root.rglob("*.py")):
            parts = path.relative_to(root.parent).with_suffix("").parts
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
        leaked = [name for name in sys.modules if name.startswith(("skymarshal.cli", "skymarshal.local"))]
        assert not leaked, leaked
        from skymarshal.arbitration.knowledge import corpus_dir
        print(corpus_dir({}))
        print(corpus_dir({"SKYMARSHAL_KNOWLEDGE_DIR": "/elsewhere"}))
    """)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SKYMARSHAL_")}
    env["PYTHONPATH"] = str(library_layer)
    # Outside the repository, so no knowledge/ folder of the checkout is anywhere above the layer.
    result = subprocess.run(
        [sys.executable, "-c", script, str(library_layer)],
        cwd=library_layer,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    packaged, override = result.stdout.split()[-2:]
    assert Path(packaged) == library_layer / "skymarshal" / "knowledge"
    assert override == "/elsewhere"


def test_library_hash_follows_the_corpus_and_the_sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = tmp_path / "knowledge"
    corpus.mkdir()
    (corpus / "a.md").write_text("# A\n## one\ntext\n")
    monkeypatch.setattr(layers, "KNOWLEDGE", corpus)
    first = layers.library_hash()
    assert layers.library_hash() == first
    (corpus / "a.md").write_text("# A\n## one\nchanged\n")
    assert layers.library_hash() != first
    (corpus / "__pycache__").mkdir()
    (corpus / "__pycache__" / "x.pyc").write_bytes(b"\0")
    second = layers.library_hash()
    (corpus / "b.md").write_text("# B\n")
    assert layers.library_hash() != second


# --------------------------------------------------------------------------------------- deps layer


def _fake_pip(calls: list[list[str]], returncode: int = 0):
    def run(argv, check=False, **_kwargs):
        calls.append(list(argv))
        target = Path(_flag_values(argv, "--target")[0])
        for rel in (
            "pkg/__init__.py",
            "pkg/tests/test_pkg.py",
            "pkg/__pycache__/x.cpython-312.pyc",
            "pkg/mod.pyi",
            "pkg/testing/helpers.py",
            "pkg-1.0.dist-info/METADATA",
            "pkg-1.0.dist-info/RECORD",
            "pkg-1.0.dist-info/entry_points.txt",
            "bin/pkg-cli",
        ):
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            (target / rel).write_text("x")
        if check and returncode:
            raise subprocess.CalledProcessError(returncode, argv)
        return subprocess.CompletedProcess(argv, returncode)

    return run


def test_deps_pip_command_targets_lambda_python312_x86_64(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(layers.subprocess, "run", _fake_pip(calls))
    layers.build_deps_layer(tmp_path)
    (argv,) = calls
    assert argv[:4] == [sys.executable, "-m", "pip", "install"]
    platforms = _flag_values(argv, "--platform")
    assert "manylinux2014_x86_64" in platforms and "manylinux_2_28_x86_64" in platforms
    assert all(p.endswith("_x86_64") for p in platforms) and "manylinux_2_35_x86_64" not in platforms  # AL2023: 2.34
    assert "--only-binary=:all:" in argv and "--no-compile" in argv
    assert _flag_values(argv, "--python-version") == ["3.12"]
    assert _flag_values(argv, "--implementation") == ["cp"]
    assert _flag_values(argv, "--target") == [str(tmp_path / "python")]
    assert _flag_values(argv, "-r") == [str(layers.REPO_ROOT / "layers/deps/requirements.txt")]
    assert _flag_values(argv, "-c") == [str(layers.REPO_ROOT / "constraints.txt")]


def test_deps_layer_pruned_but_metadata_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers.subprocess, "run", _fake_pip([]))
    layers.build_deps_layer(tmp_path)
    files = {p.relative_to(tmp_path / "python").as_posix() for p in (tmp_path / "python").rglob("*") if p.is_file()}
    assert files == {
        "pkg/__init__.py",
        "pkg/testing/helpers.py",
        "pkg-1.0.dist-info/METADATA",
        "pkg-1.0.dist-info/RECORD",
        "pkg-1.0.dist-info/entry_points.txt",
    }


def test_deps_layer_over_budget_fails_with_the_size(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers.subprocess, "run", _fake_pip([]))
    monkeypatch.setattr(layers, "LAMBDA_UNZIPPED_LIMIT", layers.LIBRARY_MARGIN + 3)
    with pytest.raises(layers.LayerBuildError, match=r"deps layer is .* MB unzipped; Lambda allows 250 MB"):
        layers.build_deps_layer(tmp_path)


def test_deps_layer_pip_failure_is_a_build_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(layers.subprocess, "run", _fake_pip([], returncode=1))
    with pytest.raises(layers.LayerBuildError, match="pip install failed with exit code 1"):
        layers.build_deps_layer(tmp_path)


def test_deps_hash_follows_requirements(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text("boto3==1.0\n")
    monkeypatch.setattr(layers, "REQUIREMENTS", requirements)
    first = layers.deps_hash()
    requirements.write_text("boto3==1.1\n")
    assert layers.deps_hash() != first


@pytest.mark.skipif(
    os.environ.get("SKYMARSHAL_TEST_LAYER_BUILD") != "1",
    reason="downloads ~130 MB of wheels; set SKYMARSHAL_TEST_LAYER_BUILD=1 to run the real pip build",
)
def test_real_deps_layer_build(tmp_path: Path) -> None:
    layers.build_deps_layer(tmp_path)
    root = tmp_path / "python"
    for package in (
        "boto3",
        "botocore",
        "pydantic_core",
        "langchain_core",
        "langchain_aws",
        "langgraph",
        "langgraph_checkpoint_aws",
        "aws_lambda_powertools",
        "rank_bm25.py",
        "airportsdata",
    ):
        assert (root / package).exists(), package
    assert list((root / "pydantic_core").glob("*.cpython-312-x86_64-linux-gnu.so"))
    assert list(root.glob("langchain_core-*.dist-info/METADATA"))
    assert not (root / "bin").exists() and not list(root.rglob("__pycache__"))
    assert layers.tree_size(root) < layers.LAMBDA_UNZIPPED_LIMIT - layers.LIBRARY_MARGIN


# ---------------------------------------------------------------------------------------------- CDK


def test_layers_synthesize_for_python312_x86_64(make_app, tmp_path: Path) -> None:
    app = make_app(tmp_path, **{"aws:cdk:bundling-stacks": []})
    stack = cdk.Stack(app, "LayersTest")
    layers.lambda_layers(stack)
    template = Template.from_stack(stack)
    template.resource_count_is("AWS::Lambda::LayerVersion", 2)
    for description in ("third-party deps", "domain library"):
        template.has_resource_properties(
            "AWS::Lambda::LayerVersion",
            {
                "CompatibleRuntimes": ["python3.12"],
                "CompatibleArchitectures": ["x86_64"],
                "Description": Match.string_like_regexp(description),
            },
        )


def test_synth_bundles_locally_through_try_bundle(make_app, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[str] = []

    def fake(name: str):
        def build(output_dir: Path) -> None:
            built.append(name)
            (output_dir / "python").mkdir(parents=True)
            (output_dir / "python" / f"{name}.txt").write_text(name)

        return build

    monkeypatch.setattr(layers, "build_deps_layer", fake("deps"))
    monkeypatch.setattr(layers, "build_library_layer", fake("library"))
    # Fresh hashes: CDK caches staged assets per process, and this must neither reuse nor leave a real layer.
    run = uuid.uuid4().hex
    monkeypatch.setattr(layers, "deps_hash", lambda: f"test-deps-{run}")
    monkeypatch.setattr(layers, "library_hash", lambda: f"test-library-{run}")
    outdir = tmp_path / "cdk.out"
    app = make_app(outdir, **{"aws:cdk:bundling-stacks": ["**"]})  # every stack bundled, as `cdk synth` does
    stack = cdk.Stack(app, "LayersBundled")
    layers.lambda_layers(stack)
    app.synth()
    assert sorted(built) == ["deps", "library"]
    template = Template.from_stack(stack).to_json()
    for logical_id, resource in template["Resources"].items():
        if resource["Type"] == "AWS::Lambda::LayerVersion":
            asset_hash = resource["Properties"]["Content"]["S3Key"].removesuffix(".zip")
            name = "deps" if "Deps" in logical_id else "library"
            assert (outdir / f"asset.{asset_hash}" / "python" / f"{name}.txt").read_text() == name
