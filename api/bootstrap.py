"""The one composition root: settings in, the log, the store and the referee out.

Nothing connects at import time; ``bootstrap(settings)`` wires the embedded adapters (a local log file and
SQLite under POKERAUDIT_DATA_DIR) or the production ones (Kafka and PostgreSQL).
"""

from __future__ import annotations

from api.settings import Settings
from ingest.checkpoints import KafkaCheckpoints, PublishCheckpoint
from ingest.log import EmbeddedLog, Log
from ingest.referee import Referee
from ingest.store import Store, store_env
from projections.protocol import compile_snapshot


class Pipeline:
    """The wired adapters. The store and the referee open on first use, so publishing to the log works
    while the database is down."""

    def __init__(self, settings: Settings, log: Log, publish_rejections: bool = False) -> None:
        self.settings = settings
        self.log = log
        self._publish_rejections = publish_rejections
        self._store: Store | None = None
        self._referee: Referee | None = None
        self._checkpoints_log: Log | None = None
        self._kafka_checkpoints: KafkaCheckpoints | None = None

    @property
    def store(self) -> Store:
        if self._store is None:
            self._store = open_store(self.settings)
        return self._store

    @property
    def referee(self) -> Referee:
        if self._referee is None:
            settings, publisher = self.settings, None
            if self._publish_rejections and settings.kafka_bootstrap_servers:
                from ingest.runners import rejections_publisher

                publisher = rejections_publisher(
                    settings.kafka_bootstrap_servers, settings.rejections_topic, settings.partitions
                )
            skew = settings.clock_skew
            self._referee = Referee(
                self.store, settings.topic, publisher, publish_checkpoint=self._checkpoint_publisher(), clock_skew=skew,
                protocols=compile_snapshot,
            )
        return self._referee

    def check_connections(self) -> None:
        """Drop the store's idle connections a database restart broke (nothing if the store is not open)."""
        if self._store is not None:
            self._store.check_connections()

    def _checkpoint_publisher(self) -> PublishCheckpoint:
        if self.settings.kafka_bootstrap_servers:
            from ingest.checkpoints import KafkaCheckpoints

            # Without waiting for the broker after each commit: the referee's next batch does not wait on it.
            self._kafka_checkpoints = KafkaCheckpoints(self.settings.kafka_bootstrap_servers,
                                                       self.settings.checkpoints_topic)
            return self._kafka_checkpoints
        return self.checkpoints_log.append

    @property
    def checkpoints_log(self) -> Log:
        """The checkpoints topic: where the referee publishes each transaction's checkpoint, and what
        ``pokeraudit verify`` checks the store against."""
        if self._checkpoints_log is None:
            self._checkpoints_log = open_checkpoints_log(self.settings)
        return self._checkpoints_log

    def close(self) -> None:
        self.log.close()
        if self._kafka_checkpoints is not None:
            self._kafka_checkpoints.close()
        if self._checkpoints_log is not None:
            self._checkpoints_log.close()
        if self._store is not None:
            self._store.close()


def open_log(settings: Settings) -> Log:
    if settings.kafka_bootstrap_servers:
        from ingest.kafka_log import KafkaLog

        return KafkaLog(settings.kafka_bootstrap_servers, settings.topic, settings.partitions)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedLog(settings.data_dir / "log.sqlite", settings.topic, settings.partitions)


def open_checkpoints_log(settings: Settings) -> Log:
    """One partition: a checkpoint chain per partition of the topic of record, read whole by ``verify``."""
    if settings.kafka_bootstrap_servers:
        from ingest.kafka_log import KafkaLog

        return KafkaLog(settings.kafka_bootstrap_servers, settings.checkpoints_topic, 1)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedLog(settings.data_dir / "log.sqlite", settings.checkpoints_topic, 1)


def open_store(settings: Settings) -> Store:
    if settings.database_url:
        return Store(env=store_env(settings.database_url))
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return Store(env=store_env(None, str(settings.data_dir / "store.sqlite")))


def bootstrap(settings: Settings, publish_rejections: bool = False) -> Pipeline:
    return Pipeline(settings, open_log(settings), publish_rejections)
