"""Deterministic synthetic names (no real person's data)."""

from __future__ import annotations

import random

GIVEN = ("Aisha Omar Fatima Ahmed Mariam Khalid Noura Hassan Layla Yousef Sara Ali Priya Arjun Ananya Rahul "
         "Maria Jose Ana Luis Sofia Mateo Emma Liam Olivia Noah Chloe Lucas Hannah Felix Elena Marco Giulia "
         "Luca Chiara Ivan Olga Dmitri Katya Wei Mei Jun Hana Kenji Yuki Min Ji Thabo Zanele Kwame Amara "
         "Grace Daniel Sophie James Lily Henry Isla Jack Ava Leo Mia Samir Rania Tariq Dina Karim Nadia").split()
FAMILY = ("Al Mansoori|Al Hashemi|Al Nuaimi|Haddad|Khoury|Nasser|Rahman|Sharma|Patel|Iyer|Nair|Reddy|Khan|"
          "Fernandes|Silva|Santos|Garcia|Lopez|Rossi|Bianchi|Muller|Schmidt|Dubois|Martin|Smith|Jones|"
          "Brown|Wilson|Taylor|O'Brien|Murphy|Kowalski|Novak|Ivanova|Petrov|Chen|Wang|Li|Tanaka|Sato|Kim|"
          "Park|Dlamini|Mokoena|Mensah|Okafor|Nguyen|Tran|Santos|Cruz|Reyes|Andersen|Larsen|Costa").split("|")


def person_name(rng: random.Random) -> str:
    return f"{rng.choice(GIVEN)} {rng.choice(FAMILY)}"
