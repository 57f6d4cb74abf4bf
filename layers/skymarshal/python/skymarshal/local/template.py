"""The synthesized workflow template the local runner executes, cached until the CDK app changes.

`python app.py` runs with asset bundling switched off (`aws:cdk:bundling-stacks: []`): the runner needs
the definition and each function's asset folder, not the Lambda layers, so no pip download happens here.
The cache key hashes every input that can change the template or the function assets.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

from .control import home

REPO_ROOT = Path(__file__).resolve().parents[5]
WORKFLOW_TEMPLATE = "SkyMarshal-Workflow.template.json"
_INPUTS = (
    "app.py",
    "cdk.json",
    "infra",
    "functions",
    "layers/skymarshal/python/skymarshal/llm/behaviour.json",
    "layers/skymarshal/python/skymarshal/workflow/runs/trigger.py",
    "layers/skymarshal/python/skymarshal/data/schema.py",
)


class SynthError(RuntimeError):
    """The CDK app did not produce the workflow template."""


def _fingerprint(root: Path) -> str:
    digest = hashlib.sha256()
    for name in _INPUTS:
        path = root / name
        files = (
            sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
            if path.is_dir()
            else [path]
        )
        for file in files:
            if file.exists():
                digest.update(str(file.relative_to(root)).encode())
                digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def synthesize(outdir: Path, root: Path = REPO_ROOT) -> Path:
    """Run the CDK app into `outdir`; returns the workflow template's path."""
    env = {
        **os.environ,
        "CDK_OUTDIR": str(outdir),
        "JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION": "20",
        "CDK_CONTEXT_JSON": json.dumps({"aws:cdk:bundling-stacks": [], "aws:cdk:enable-asset-metadata": True}),
    }
    done = subprocess.run([sys.executable, "app.py"], cwd=root, env=env, capture_output=True, text=True)
    template = outdir / WORKFLOW_TEMPLATE
    if (
        not template.exists()
    ):  # cdk-nag findings fail synth after the templates are written: only a missing one is fatal
        tail = (done.stderr or done.stdout).strip().splitlines()[-5:]
        raise SynthError(f"`python app.py` did not write {WORKFLOW_TEMPLATE}: " + " | ".join(tail))
    return template


def workflow_template(echo=print) -> Path:
    """The cached template, synthesized again when an input changed."""
    if not (REPO_ROOT / "app.py").exists():
        raise SynthError(f"the CDK app is not at {REPO_ROOT}: run SkyMarshal from its repository (pip install -e .)")
    key = _fingerprint(REPO_ROOT)
    outdir = home() / "cdk.out" / key
    template = outdir / WORKFLOW_TEMPLATE
    if not template.exists():
        echo("synthesizing the CDK app for the local state machine (once per change, about 20 s)")
        synthesize(outdir)
    return template
