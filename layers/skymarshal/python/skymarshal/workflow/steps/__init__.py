"""The state machine's steps free of Lambda: Validate, the analysis rounds and Collate, the debate, Arbitrate and
Execute's entry. Handlers and the local runner call these; they must not import handlers/, api/ or local/."""
