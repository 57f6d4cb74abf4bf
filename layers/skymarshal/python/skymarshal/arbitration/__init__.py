"""The arbitrator: scenarios from the proposals and the data, validation against every binding constraint,
ranking, sensitivity and the knowledge base's citations."""
