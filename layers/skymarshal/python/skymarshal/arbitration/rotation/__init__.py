"""A plan is an operation: what a swap, delay or cancellation does to each rotation it touches, and the checks
that every tail still flies its day in sequence. Must not import workflow/, agents/ or an AWS SDK."""
