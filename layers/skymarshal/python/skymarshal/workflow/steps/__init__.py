"""The state machine's steps free of Lambda: Validate, the analysis rounds and Collate, the debate, Arbitrate and
Execute's entry. Handlers call these; nothing below handlers/ and local/ imports them (infra/ never)."""
