"""The candidate plans: operate late or on another tail, exchange tails, cancel, rescue with a ferried spare, wait
out a curfew, a network decision as scenarios, and their words. Must not import workflow/, agents/ or an AWS SDK."""
