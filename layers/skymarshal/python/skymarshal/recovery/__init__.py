"""Network recovery optimizer for the ROADEF/EURO 2009 problem (aircraft and passenger recovery).

model/parser/writer: the instance and solution files; checker/flight_checks: every constraint, typed violations;
cost: the official cost function; network/aircraft_plan/passengers/solver: the anytime optimizer;
adapter: SkyMarshal's tables to the model and the plan back. Pure Python (pydantic only), so it runs
in the agent Lambda.
"""
