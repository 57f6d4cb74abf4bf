"""Intake: a report or movement message in an OCC's words read into facts, then checked against the data.

- ``normalise``  one spelling (abbreviations written out, control characters dropped), spans kept;
- ``lexicon``    the AHM 730 cause lexicon as data; ``cause`` scores it, with a confidence;
- ``sentences``  which sentences instruct (they state no fact);
- ``report``     cause, tail, airports, airspace, crew position, window, duration (``read_report``);
- ``capacity``   a capacity share, a rate, a hold in every form;
- ``dates``, ``flights``, ``text``  date phrases, flight numbers, the description's own words;
- ``when``       the operating day and which date phrases state the disruption's day;
- ``mvt``        an MVT-like delay message's elements.

The reading checked against the data (the flight operates, the tail is the flight's, the airport is on its route),
run by Validate, each giving the `Disruption` and its what-if overlay:
- ``extraction``, ``extraction_core``, ``extraction_llm``  which flight on which day (parser, then a model);
- ``disruption_facts``  a flight's report; ``airport_facts`` an airport or airspace over a window;
  ``tail_facts`` an aircraft by its registration; ``movement_facts`` an MVT/MVA/DIV message;
- ``corrected_facts``  the duty manager's corrections, checked again; ``report_llm`` a model completing the reading.
- ``clearance``  when the cause clears (stated in ``clearance_words``, else ``clearance_history``, else
  ``clearance_policy``), put on every disruption Validate resolves.
"""
