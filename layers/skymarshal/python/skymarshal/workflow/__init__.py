"""The disruption workflow's domain steps: rounds and collation, approval, execution, learning."""
