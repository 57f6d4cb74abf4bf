"""A duty manager's instruction read by a grammar, with a model's reading for what the grammar did not
understand. Must not import workflow/, agents/ or an AWS SDK (the model comes through llm/)."""
