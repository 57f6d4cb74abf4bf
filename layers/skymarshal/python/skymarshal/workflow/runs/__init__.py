"""Runs as a whole: the trigger that starts one, the client that follows and answers it, flight claims, retries,
corrections and reuse of finished rounds. Must not import the steps, the agents or the arbitrator."""
