"""Operations assistant (issue #8, seed 004): side questions about airports, alternates and rules.

planner (AviationPlan, validated against the tool manifest) → next-query predictor → tool runner (DATA only)
→ formatter (strategy by tool type), streamed as SSE by ``http.create_app`` and asked from the CLI with
``skymarshal ask``. Offline by default: a deterministic planner and template answers.
"""
