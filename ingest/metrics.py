"""The referee's Prometheus metrics (names documented in docs/OPERATIONS.md, "Metrics"; the web app's
operations page reads the same names) and its batch summaries, logged at a bounded rate."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from prometheus_client import Counter, Gauge, Histogram

from ingest.judgement import Verdict

log = logging.getLogger("pokeraudit.referee")

JUDGED = Counter("pokeraudit_referee_records_judged", "records the referee judged (duplicates included)")
ACCEPTED = Counter("pokeraudit_referee_records_accepted", "records the referee stored as accepted events")
REJECTED = Counter(
    "pokeraudit_referee_records_rejected", "records the referee stored as rejections, by kind and rule", ["kind", "rule"]
)
DUPLICATES = Counter("pokeraudit_referee_records_duplicate", "records whose event id was already judged")
BATCH_SECONDS = Histogram(
    "pokeraudit_referee_batch_seconds",
    "time to judge and commit one partition's batch",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
)
LAG = Gauge("pokeraudit_referee_lag_records", "records on the log not yet judged, by partition", ["partition"])
RETRIES = Counter(
    "pokeraudit_referee_retries", "infrastructure failures the referee waited out and retried, by service", ["service"]
)

#: at most one batch summary a partition this often (seconds): a busy referee commits several batches a second
SUMMARY_EVERY_SECONDS = 10.0


class BatchSummaries:
    """Counts batches between log lines; one line per partition per :data:`SUMMARY_EVERY_SECONDS`."""

    def __init__(self, every: float = SUMMARY_EVERY_SECONDS) -> None:
        self.every = every
        self._since: dict[int, float] = {}
        self._counts: dict[int, dict[str, float]] = {}

    def observe(self, partition: int, verdicts: Sequence[Verdict], seconds: float, lag: int | None) -> None:
        observe_batch(verdicts, seconds)
        if lag is not None:
            LAG.labels(str(partition)).set(lag)
        counts = self._counts.setdefault(partition, {"batches": 0, "judged": 0, "accepted": 0, "rejected": 0, "seconds": 0.0})
        counts["batches"] += 1
        counts["judged"] += len(verdicts)
        counts["accepted"] += sum(v.outcome == "accepted" for v in verdicts)
        counts["rejected"] += sum(v.outcome == "rejected" for v in verdicts)
        counts["seconds"] += seconds
        now = time.monotonic()
        if now - self._since.get(partition, 0.0) >= self.every:
            self._since[partition] = now
            log.info(
                "batches judged",
                extra={"partition": partition, "lag": lag, **{k: round(v, 3) for k, v in counts.items()}},
            )
            self._counts.pop(partition)


def observe_batch(verdicts: Sequence[Verdict], seconds: float) -> None:
    BATCH_SECONDS.observe(seconds)
    JUDGED.inc(len(verdicts))
    # counted here and added once per counter: each inc() takes the counter's lock, thousands of times a batch
    accepted = duplicates = 0
    rejected: dict[tuple[str, str], int] = {}
    for verdict in verdicts:
        if verdict.outcome == "accepted":
            accepted += 1
        elif verdict.outcome == "duplicate":
            duplicates += 1
        elif verdict.rejection is not None:
            labels = (verdict.rejection.kind.value, verdict.rejection.rule)
            rejected[labels] = rejected.get(labels, 0) + 1
    if accepted:
        ACCEPTED.inc(accepted)
    if duplicates:
        DUPLICATES.inc(duplicates)
    for (kind, rule), n in rejected.items():
        REJECTED.labels(kind, rule).inc(n)
