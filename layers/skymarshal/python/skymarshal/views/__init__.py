"""What shapes a run's data for a person: the Gantt of a decision's plans, a run's history and the runs list."""
