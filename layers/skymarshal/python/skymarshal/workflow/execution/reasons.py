"""Why an execution group failed, in words: a plan error's own reason, or for a cancelled transaction each row whose
condition failed and what about it differs from what the plan read."""

from __future__ import annotations

from ..aws.dynamodb import AttributeBase, ConditionBase, TypeDeserializer
from .changes import Change, PlanError, ReasonCode
from .records import TransactionFailed

_typed = TypeDeserializer()


def failure_reason(exc: Exception) -> tuple[ReasonCode, str]:
    """The typed reason a group failed for, and what went wrong in words."""
    if isinstance(exc, PlanError):
        return exc.code, str(exc)
    if isinstance(exc, TransactionFailed):
        error = exc.error.response
        reasons = error.get("CancellationReasons", [])
        failed = [
            (exc.changes[i], r)
            for i, r in enumerate(reasons[: len(exc.changes)])
            if r.get("Code") == "ConditionalCheckFailed"
        ]
        if failed:
            return "CONDITION_FAILED", "; ".join(_stale(c, r.get("Item")) for c, r in failed[:3]) + (
                f" (and {len(failed) - 3} more)" if len(failed) > 3 else ""
            )
        return "TRANSACTION_ERROR", f"{error['Error']['Code']}: {error['Error'].get('Message', '')}"
    return "TRANSACTION_ERROR", f"{type(exc).__name__}: {exc}"


def _stale(change: Change, item: dict | None) -> str:
    """What is different about a row whose condition failed, in words."""
    row = f"{change.table} {'/'.join(str(v) for v in change.key.values())}"
    now = {k: _typed.deserialize(v) for k, v in item.items()} if item else None
    if change.before is None:
        return f"{row} already exists"
    if now is None:
        return f"{row} is gone"
    moved = [
        f"{k} is {now.get(k)!r}, planned on {change.before.get(k)!r}"
        for k in sorted({*change.before, *now})
        if k != "updated_by_execution" and now.get(k) != change.before.get(k)
    ]
    if moved:
        return f"{row} changed since it was read: " + ", ".join(moved[:3])
    if change.guard is None:
        return f"{row} changed"
    return f"{row} no longer meets the plan's condition {_text(change.guard)}: " + ", ".join(
        f"{name} is {now.get(name)!r}" for name in sorted(set(_names(change.guard)))
    )


def _text(condition: ConditionBase) -> str:
    expression = condition.get_expression()
    values = [
        _text(v) if isinstance(v, ConditionBase) else v.name if isinstance(v, AttributeBase) else repr(v)
        for v in expression["values"]
    ]
    return expression["format"].format(*values, operator=expression["operator"])


def _names(condition: ConditionBase):
    for value in condition.get_expression()["values"]:
        if isinstance(value, ConditionBase):
            yield from _names(value)
        elif isinstance(value, AttributeBase):
            yield value.name
