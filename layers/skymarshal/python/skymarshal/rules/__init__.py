"""Deterministic rules engine: legality is computed, never guessed.

Pure functions over the operational data; each returns typed results (``skymarshal.models.findings.Finding``)
naming the clause applied. Imports nothing of the project but ``skymarshal.models``.

| module | rule | clause |
|---|---|---|
| ``ftl_easa`` | maximum daily FDP, acclimatised (every table cell as data) | ORO.FTL.205(b)(1) |
| ``ftl_easa`` | unknown state of acclimatisation | ORO.FTL.205(b)(2) |
| ``ftl_easa`` | augmented crew / in-flight rest (class 1/2/3, 1–2 extra pilots) | CS FTL.1.205(c) |
| ``ftl_easa`` | planned extension (explicit only) | ORO.FTL.205(d) |
| ``ftl_easa`` | commander's discretion (explicit only) | ORO.FTL.205(f), GM1 ORO.FTL.205(f)(1)(i) |
| ``ftl_easa_limits`` | cumulative duty 60/110/190 h in 7/14/28 days; flight time 100 h/28 d, 900 h/year, 1,000 h/12 months | ORO.FTL.210(a)(b) |
| ``ftl_easa_limits`` | minimum rest: max(preceding duty, 12 h home / 10 h away) | ORO.FTL.235(a)(b) |
| ``ftl_faa`` | maximum FDP Table B; not acclimated −30 min | 14 CFR 117.13(a)(b) |
| ``ftl_faa`` | maximum flight time Table A | 14 CFR 117.11(a) |
| ``ftl_faa`` | rest 10 h before an FDP; 30 h free in 168 h | 14 CFR 117.25(e)(b) |
| ``ftl_faa`` | cumulative FDP 60 h/168 h, 190 h/672 h; flight time 100 h/672 h, 1,000 h/365 d | 14 CFR 117.23 |
| ``crew`` | one member on one duty, a delay, the latest legal delay, a reserve swap; standby call-out | all of the above; CS FTL.1.225(b) |
| ``crew_qualification`` | type rating group; 3 take-offs and landings in 90 days (pilots) | FCL.700, ORO.CC.125, FCL.060(b)(1); 14 CFR 61.31, 121.433, 121.439, 61.57(a) |
| ``eu261_scope`` | EU261 / UK261 applicability | Reg. (EC) 261/2004 Art. 3(1); UK261 |
| ``eu261`` | compensation 250/400/600 EUR, 220/350/520 GBP; Sturgeon 3 h; halving; notice; care | Art. 5, 6, 7, 9; C-402/07, C-549/07 |
| ``mel`` | rectification intervals A/B 3/C 10/D 120 days; AOG work orders | MMEL/MEL; Part-M M.A.403 |
| ``curfew`` | movement inside a local-time curfew / night quota window (DST-correct) | per-airport source |
| ``weather`` | crosswind on the best runway end; visibility/ceiling minima; significant weather | AFM crosswind; OM-A 8.1.3, CAT.OP.MPA.110/305 |
| ``maintenance_release`` | estimated release of an AOG aircraft from work orders, parts and the authorised roster | Part-145.A.50, Part-145.A.35; Part-M M.A.403 |
| ``tail_swap`` (checks in ``tail_swap_checks``, models in ``tail_swap_models``) | tail swap: rating group, range, airworthiness, position + min turn, own-flight conflicts, cabins | FCL.700, ORO.CC.125; MEL; EU261 Art. 4, 10 |
| ``regulatory`` | NOTAM closures; slot tolerance; ranked diversion alternates (range, runway, weather, curfew, NOTAM) | ICAO Annex 15; IATA WASG; CAT.OP.MPA.181/182 |
| ``network`` | delay propagation through turn buffers; misconnections against the MCT | reactionary delay (CODA); airport/carrier MCT |
| ``guest`` (tables, config and models in ``guest_models``) | affected/premium/vulnerable passengers; journey-based EU261/UK261 liability; duty-of-care cost | Reg. 1107/2006; EU261 Art. 6, 7, 9, 11; C-537/17 |
| ``cargo`` | shipments affected; time limit per handling code (company policy); offload handling; revenue at risk | IATA LAR, TCR, PCR, DGR 9.1 |
| ``finance`` | plan cost: delay (A4A USD 81.18/min), compensation, care, overtime, swap, ferry, cancellation, cargo | A4A 2014; company policy |
"""
