"""Crew in a plan: rest, positioning, the next rostered duty (re-crewed or re-timed), cabin complement and minimum,
whom to call. Rules come from rules/ and analysis/; must not import workflow/, agents/ or an AWS SDK."""
