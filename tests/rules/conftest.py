"""Fixtures of the operations rules tests: one small generated airline shared by every test file here.

Generated once per session (about 7 s at load factor 0.05) rather than once per module, so the six real-data test
modules pay for it once. Named ``ops`` so it does not shadow the full-load ``airline`` fixture of tests/conftest.py.
"""

from __future__ import annotations

import pytest
from ops_rows import OpsData

from skymarshal.data.generator import GeneratorConfig, generate


@pytest.fixture(scope="session")
def ops() -> OpsData:
    airline = generate(GeneratorConfig(load_factor=0.05))
    return OpsData(airline.tables)
