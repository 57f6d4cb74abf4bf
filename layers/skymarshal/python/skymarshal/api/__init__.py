"""The duty manager's HTTP API (Powertools REST resolver), its roles, and the local server around it."""
