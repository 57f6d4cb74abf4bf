"""Network plans for an airport or airspace disruption: its scope, the planner (the ROADEF 2009 optimizer per
objective), the plans' totals, tail continuity, crewability, validation and exclusions; and the network agent's
optimizer proposal and every agent's analysis over the window's flights."""
