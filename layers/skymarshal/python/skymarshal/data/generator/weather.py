"""Hourly weather per airport: calm, seasonal conditions (the demo storm is added by scenarios.py)."""

from __future__ import annotations

import math
import random
from datetime import datetime, timedelta

from ...models.airports import airport
from ...models.operational import WeatherObservation


def build_weather(airports: list[str], start: datetime, hours: int, rng: random.Random) -> list[WeatherObservation]:
    rows: list[WeatherObservation] = []
    for code in airports:
        info = airport(code)
        january_mean = 27 - abs(info.lat) * 0.55 if info.lat > 0 else 24 - abs(info.lat) * 0.1
        prevailing = rng.randrange(0, 360, 10)
        for h in range(hours):
            at = start + timedelta(hours=h)
            local_hour = (at.hour + info.lon / 15) % 24
            temperature = january_mean + 5 * math.sin((local_hour - 9) / 24 * 2 * math.pi) + rng.uniform(-1.5, 1.5)
            speed = max(0, int(rng.gauss(9, 4)))
            gust = speed + rng.randint(8, 14) if speed >= 15 and rng.random() < 0.5 else None
            dawn_mist = 4 <= local_hour <= 8 and rng.random() < 0.15
            rows.append(
                WeatherObservation(
                    airport=code,
                    forecast_time=at,
                    visibility_m=rng.randint(2500, 6000) if dawn_mist else 9999,
                    ceiling_ft=rng.choice((None, None, None, 2500, 4000)),
                    wind_direction_deg=(prevailing + rng.randint(-40, 40)) % 360 or 360,
                    wind_speed_kt=speed,
                    gust_kt=gust,
                    temperature_c=round(temperature, 1),
                    phenomena=["BR"] if dawn_mist else [],
                )
            )
    return rows
