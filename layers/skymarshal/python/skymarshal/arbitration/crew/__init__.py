"""Crew in a plan: rest, positioning, the next rostered duty, cabin complement and minimum, whom to call.
Rules come from rules/ and analysis/; must not import workflow/, agents/ or an AWS SDK."""
