"""Intake: a report in an OCC's words read into facts, before any check against the data.

- ``normalise``  one spelling (abbreviations written out, control characters dropped), spans kept;
- ``lexicon``    the AHM 730 cause lexicon as data; ``cause`` scores it, with a confidence;
- ``sentences``  which sentences instruct (they state no fact);
- ``report``     cause, tail, airports, airspace, crew position, window, duration (``read_report``);
- ``capacity``   a capacity share, a rate, a hold in every form;
- ``dates``, ``flights``, ``text``  date phrases, flight numbers, the description's own words;
- ``when``       the operating day and which date phrases state the disruption's day;
- ``mvt``        an MVT-like delay message's elements.

Checking against the data (the flight operates, the tail is the flight's, the airport is on its route) is the
agents' (agents/disruption_facts.py, network_facts.py, tail_facts.py), run by Validate.
"""
