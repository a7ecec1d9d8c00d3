"""The referee and the projector in background threads of the API process.

In the embedded mode one process is the whole service: what is submitted must be judged and projected for
anyone to read it. In the kafka+postgres mode they are separate processes (``pokeraudit referee``), or these
threads when ``pokeraudit serve --workers`` asks for them.

A worker that fails for a reason other than an unreachable service stops, and says so on ``/ready``: an
audit service must not skip what it cannot judge.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from api.bootstrap import Pipeline, bootstrap, referee_runner
from api.follow import Follower, follow
from api.settings import Settings
from ingest.log import EmbeddedLog
from ingest.runners import drain_embedded

log = logging.getLogger("pokeraudit.workers")

#: how long an idle worker sleeps before looking again (a submission wakes the embedded referee at once)
IDLE_SECONDS = 0.05


class Workers:
    def __init__(self, settings: Settings, projector: Callable[[], Follower] | None = None) -> None:
        self.settings = settings
        self._projector = projector
        self._stop = threading.Event()
        self._judged = threading.Event()
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []
        #: why a worker stopped, by worker name (empty while all run)
        self.failures: dict[str, str] = {}
        #: the workers started: "referee", and "projector" when there is one
        self.running: list[str] = []

    def start(self) -> None:
        """Open the workers' own log, store and projector here, one after the other (two first openings of
        one SQLite file at once both try to create its tables), then run them in threads."""
        self._stop.clear()
        pipeline = bootstrap(self.settings)
        _ = pipeline.store
        targets: list[tuple[str, Callable[[], None]]] = [("referee", lambda: self._referee(pipeline))]
        if self._projector is not None:
            first = [self._projector()]
            targets.append(("projector", lambda: self._project(first)))
        self.running = [name for name, _ in targets]
        for name, target in targets:
            thread = threading.Thread(target=self._guarded, args=(name, target), name=f"pokeraudit-{name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        for thread in self._threads:
            thread.join(timeout=30)
        self._threads.clear()

    def wake(self) -> None:
        """Records were just appended: judge them now rather than at the next idle tick."""
        self._wake.set()

    def _guarded(self, name: str, target: Callable[[], None]) -> None:
        try:
            target()
        except Exception as exc:  # recorded for /ready and logged; the worker stays stopped
            log.exception("the %s stopped", name)
            self.failures[name] = f"{type(exc).__name__}: {exc}"

    def _referee(self, pipeline: Pipeline) -> None:
        # Its own log and store: the request threads use the app's, and SQLite connections are per user.
        try:
            if isinstance(pipeline.log, EmbeddedLog):
                self._drain(pipeline, pipeline.log)
            else:
                self._consume(pipeline)
        finally:
            pipeline.close()

    def _drain(self, pipeline: Pipeline, event_log: EmbeddedLog) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            if drain_embedded(event_log, pipeline.referee, self.settings.referee_batch_max):
                self._judged.set()
                continue
            self._wake.wait(IDLE_SECONDS)

    def _consume(self, pipeline: Pipeline) -> None:
        settings = self.settings
        assert settings.kafka_bootstrap_servers is not None
        runner = referee_runner(settings, pipeline.referee)
        runner.run(stop=self._stop)

    def _project(self, opened: list[Follower]) -> None:
        """Follow with the projector ``start`` opened, and fresh ones after an outage cut it off."""
        make = self._projector
        assert make is not None

        def projector() -> Follower:
            return opened.pop() if opened else make()

        def idle() -> None:
            self._judged.wait(IDLE_SECONDS)
            self._judged.clear()

        follow(projector, self._stop, idle)
