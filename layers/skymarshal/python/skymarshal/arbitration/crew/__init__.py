"""Crew in a plan: waiting for rest, positioning, the next rostered duty, cabin complement and whom to call.
Rules come from rules/ and analysis/; must not import workflow/, agents/ or an AWS SDK."""
