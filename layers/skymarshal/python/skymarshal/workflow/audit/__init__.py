"""The audit trail: append-only hash-chained records per disruption, their anchors outside the table, and the
run's audit document. Must not import the arbitrator, the agents or the steps: every step writes through it."""
