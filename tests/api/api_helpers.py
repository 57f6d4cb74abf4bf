"""Shared by the API tests."""

DEMO = "Flight EY123 on January 20th had a mechanical failure"
