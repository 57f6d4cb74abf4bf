"""Learn: a run's outcome, its history record (one per flight for a network plan) and its escalation alert.
Must not import the agents or the arbitrator's builders: it reads what they left in the state (and closes
the arbitration thread through steps.decision)."""
