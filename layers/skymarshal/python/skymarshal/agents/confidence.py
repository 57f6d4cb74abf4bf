"""Agent confidence, computed — never a constant.

    confidence = completeness × margin × assumption, clamped to [0.05, 0.99]

- completeness = inputs the analysis found ÷ inputs it uses (e.g. crew rostered AND their profiles found);
- margin = 1.0 when no finding is `at_risk`; each at-risk finding (legal but within the at-risk margin of
  a limit) takes 5 % off, down to 0.7 — an answer near a limit is less certain than one far from it;
- assumption = 0.8 when the analysis priced a probe delay because no delay was known, else 1.0.

Illegal findings do not lower confidence: the rules engine is certain about them.
"""

from __future__ import annotations

from ..analysis.base import Analysis

AT_RISK_PENALTY = 0.05
MARGIN_FLOOR = 0.7
PROBE_FACTOR = 0.8


def agent_confidence(analysis: Analysis, probed: bool = False) -> float:
    completeness = analysis.inputs_present / analysis.inputs_expected if analysis.inputs_expected else 1.0
    at_risk = sum(1 for f in analysis.findings if f.status == "at_risk")
    margin = max(MARGIN_FLOOR, 1.0 - AT_RISK_PENALTY * at_risk)
    assumption = PROBE_FACTOR if probed else 1.0
    return round(min(0.99, max(0.05, completeness * margin * assumption)), 3)
