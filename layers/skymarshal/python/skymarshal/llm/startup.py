"""The model configuration checked when a Lambda container or a CLI command starts.

A Lambda logs a wrong id once, on one line, at cold start (and each model call then falls back to the rules'
text with the typed reason `model_id_refused`, so a run still completes and says why); the CLI refuses to
start (cli/__init__.py reports ModelConfigError on one line).
"""

from __future__ import annotations

from .profiles import ModelConfigError
from .provider import check_models


def startup_check(logger) -> list[str]:
    try:
        models = check_models()
    except ModelConfigError as exc:
        logger.error(f"model configuration refused: {exc}", extra={"reason": "model_id_refused"})
        return []
    if models:
        logger.info("bedrock models", extra={"models": models})
    return models
