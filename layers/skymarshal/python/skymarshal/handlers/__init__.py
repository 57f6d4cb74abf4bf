"""The work behind each Lambda function; `functions/*/handler.py` only bind these to a function."""
