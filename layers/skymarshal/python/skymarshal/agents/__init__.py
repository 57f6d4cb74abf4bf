"""The seven domain agents: each a LangGraph graph over its own tables and the rules engine."""
