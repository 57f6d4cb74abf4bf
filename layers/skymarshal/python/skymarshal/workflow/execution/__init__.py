"""Execute: an approved plan's actions → guarded row changes written all or nothing, the roster and positions they
move, the messages stored and published, and recovery after a crash. Must not import the agents or the arbitrator's builders."""
