"""What a decision sends: the IATA messages a plan implies (ASM schedule changes, MVT estimates) and who must be
told (the crew whose duties change, the stations whose movements change, the passengers by what happened to them).

Built from a plan's typed actions and the flights and rosters as they are before it is carried out, shown at
approval ("what will be sent") and written by Execute beside its report. Outbound only: reading an MVT a station
sends in is intake's (`intake/mvt.py`).
"""
