"""Zero-tolerance validation of a scenario: the safety bounds, then the rules re-computed under its own times and
resources (scenario.py), the airport checks among them (airport.py). Must not import workflow/, agents/ or an
AWS SDK."""
