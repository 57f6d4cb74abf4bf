"""Where the ROADEF 2009 instances are: env ROADEF_DIR, else `../shared/roadef2009` beside the repository's top
(never an absolute path in the repository: each clone or worktree finds its own shared folder)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
ROADEF = Path(os.environ.get("ROADEF_DIR") or REPO.parent / "shared" / "roadef2009")

needs_roadef = pytest.mark.skipif(
    not (ROADEF / "A01").is_dir(), reason=f"ROADEF 2009 instances not found at {ROADEF} (set ROADEF_DIR)"
)
