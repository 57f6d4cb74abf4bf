"""Offline operations assistant: how long a question takes (figures, not assertions).

Cold start (loading and joining the airport tables and the rules corpus) is timed once; then each question
of a fixed set is asked ``--repeat`` times through the compiled graph (planner → predictor → tool → template
formatter) and the median per question is printed, as a Lambda would see it once warm.
"""

from __future__ import annotations

import argparse
import statistics
import time

from skymarshal.assistant.config import AssistantSettings
from skymarshal.assistant.graph import Assistant

QUESTIONS = (
    "airports near the route from AUH to LHR with a runway long enough for a 787",
    "Which airports within 150 nm of the AUH–LHR route can take a 787 at night?",
    "compare passenger compensation rules between the UK and France",
    "How does UK261 differ from EU261 on long-haul delays?",
    "What are the curfew rules at Frankfurt?",
    "Is Sydney in curfew at 23:30?",
    "airports near Heathrow within 50 km",
    "Tell me about EGLL",
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)

    start = time.perf_counter()
    assistant = Assistant(settings=AssistantSettings(checkpointer="none"))
    assistant.ask("Tell me about AUH")  # loads the airport join and the rules index
    print(f"cold start (tables, index, graph, first answer): {time.perf_counter() - start:.2f} s")
    for question in QUESTIONS:
        times = []
        for _ in range(args.repeat):
            began = time.perf_counter()
            reply = assistant.ask(question)
            times.append(time.perf_counter() - began)
        print(f"{statistics.median(times) * 1000:7.1f} ms  {reply.plan['selected_tool']:<32} {question}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
