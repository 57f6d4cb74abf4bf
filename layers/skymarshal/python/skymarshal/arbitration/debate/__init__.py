"""When the agents debate: each agent's position after a round and the rule that decides whether another round
is worth it. Must not import workflow/, agents/ or an AWS SDK."""
