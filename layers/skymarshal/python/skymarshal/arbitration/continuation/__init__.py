"""A diverted flight continued from its alternate: the plan, who flies it on, and its re-check.
Must not import workflow/, agents/ or an AWS SDK."""
