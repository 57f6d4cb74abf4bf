"""Domain services: read one disruption's operational data through a data handle and apply the rules.

Shared by the agents, the arbitrator and the command line, so each computes legality the same way.
"""
