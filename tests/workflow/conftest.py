"""The workflow fixtures (`wf`, `calls`, `restore`) live in tests/conftest.py, shared with tests/api."""
