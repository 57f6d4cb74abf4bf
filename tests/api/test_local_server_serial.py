"""`skymarshal serve` hands the Powertools resolver one request at a time, as a Lambda instance does: the resolver
keeps the request being handled on the app, and two at once overwrote each other's route (a 500 to the console,
KeyError '_route', seen in the history browser test)."""

from __future__ import annotations

import threading
import time
import urllib.request

import httpx

from skymarshal.api.roles import Role


def test_concurrent_api_requests_reach_the_resolver_one_at_a_time(server, monkeypatch):
    from skymarshal.api import server as local

    inside, most, guard = 0, 0, threading.Lock()

    def slow(event, context):
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.05)
        with guard:
            inside -= 1
        return {"statusCode": 200, "body": "{}", "headers": {"Content-Type": "application/json"}}

    token = httpx.post(f"{server}/api/dev/login", json={"role": Role.OBSERVER.value}).json()["id_token"]
    monkeypatch.setattr(local.api, "handle", slow)
    statuses: list[int] = []

    def get() -> None:  # signed in: an anonymous request is refused before it reaches the resolver
        request = urllib.request.Request(f"{server}/api/disruptions", headers={"Authorization": f"Bearer {token}"})
        with urllib.request.urlopen(request, timeout=30) as reply:
            statuses.append(reply.status)

    threads = [threading.Thread(target=get) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert statuses == [200] * 8 and most == 1
