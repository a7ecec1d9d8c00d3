"""The one composition root: settings in, the application's parts out — the log, the store and the referee
(:func:`bootstrap`), the read models (:func:`open_read_models`) and the projector (:func:`open_projector`).

Every entry point builds its parts here: the CLI, the API, its workers and the benches. Nothing connects at import
time; the settings name the embedded adapters (a local log file and SQLite under POKERAUDIT_DATA_DIR) or the
production ones (Kafka and PostgreSQL). Projections are handed the store and name it only by its Protocol
(projections/stored.py). Where a part needs only where the data is, any settings with ``database_url`` and
``data_dir`` do (:class:`projections.database.ReadSettings`: a benchmark's scratch folder, a rebuild's worker).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from api.settings import Settings
from ingest.checkpoints import KafkaCheckpoints, PublishCheckpoint
from ingest.log import EmbeddedLog, Log
from ingest.referee import Referee
from ingest.store import Store, store_env
from projections.database import PostgresReadDatabase, ReadDatabase, ReadSettings, SqliteReadDatabase
from projections.parallel import Where
from projections.protocol import compile_snapshot
from projections.read_models import ReadModels
from projections.runner import Projector

if TYPE_CHECKING:
    from ingest.runners import KafkaRefereeRunner

#: the embedded mode's files under the data folder
LOG_FILE = "log.sqlite"
STORE_FILE = "store.sqlite"
READ_MODELS_FILE = "read.sqlite"


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
    def store_opened(self) -> bool:
        """Whether :attr:`store` is open already (reading it then opens nothing)."""
        return self._store is not None

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


def open_log(settings: Settings, on_first_use: bool = False) -> Log:
    """The log of record; ``on_first_use``: Kafka's opened by its first call (the API starts with the broker down)."""
    if settings.kafka_bootstrap_servers:
        from ingest.kafka_log import KafkaLog, KafkaLogOnFirstUse

        if on_first_use:
            return KafkaLogOnFirstUse(settings.kafka_bootstrap_servers, settings.topic, settings.partitions)
        return KafkaLog(settings.kafka_bootstrap_servers, settings.topic, settings.partitions)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedLog(settings.data_dir / LOG_FILE, settings.topic, settings.partitions)


def open_checkpoints_log(settings: Settings) -> Log:
    """One partition: a checkpoint chain per partition of the topic of record, read whole by ``verify``."""
    if settings.kafka_bootstrap_servers:
        from ingest.kafka_log import KafkaLog

        return KafkaLog(settings.kafka_bootstrap_servers, settings.checkpoints_topic, 1)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedLog(settings.data_dir / LOG_FILE, settings.checkpoints_topic, 1)


def open_store(settings: ReadSettings) -> Store:
    """The event store the settings name: PostgreSQL at their ``database_url``, else SQLite in their data folder."""
    if settings.database_url:
        return Store(env=store_env(settings.database_url))
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return Store(env=store_env(None, str(settings.data_dir / STORE_FILE)))


def open_read_database(settings: ReadSettings) -> ReadDatabase:
    """The read models' database: PostgreSQL when ``database_url`` is set, else SQLite in the data folder."""
    if settings.database_url:
        return PostgresReadDatabase(settings.database_url)
    return SqliteReadDatabase(settings.data_dir / READ_MODELS_FILE)


def open_read_models(settings: ReadSettings) -> ReadModels:
    return ReadModels(open_read_database(settings))


def reopened(where: Where) -> tuple[Store, ReadDatabase]:
    """The store and the read models ``where`` names, opened again by a worker process of a parallel rebuild."""
    return open_store(where), open_read_database(where)


def open_projector(settings: ReadSettings, **kwargs: Any) -> Projector:
    """The projector over the store and the read models the settings name, both opened here and closed by its
    ``close()``; it rebuilds in several processes (``rebuild(workers=N)``) by opening them again in each."""
    where = Where(settings.database_url, settings.data_dir)
    return Projector(open_store(settings), open_read_database(settings), owns=True, reopen=(where, reopened), **kwargs)


def embedded(folder: Path, partitions: int = 1, topic: str = "events") -> Settings:
    """The embedded mode in ``folder`` whatever the environment names (a benchmark's scratch pipeline; its
    simulations are dated in the past, so no clock skew bounds them)."""
    # given explicitly, they take precedence over the environment: no DATABASE_URL or broker there reaches the folder
    return Settings.model_validate({
        "KAFKA_BOOTSTRAP_SERVERS": None, "DATABASE_URL": None, "POKERAUDIT_CLOCK_SKEW_S": None,
        "POKERAUDIT_DATA_DIR": folder, "POKERAUDIT_PARTITIONS": partitions, "POKERAUDIT_TOPIC": topic,
    })


def referee_runner(settings: Settings, referee: Referee) -> KafkaRefereeRunner:
    """The referee's runner on the settings' broker, topic, batch bounds and consumer group."""
    from ingest.runners import KafkaRefereeRunner

    assert settings.kafka_bootstrap_servers is not None, "the referee's runner follows Kafka"
    return KafkaRefereeRunner(settings.kafka_bootstrap_servers, settings.topic, referee, settings.referee_batch_max,
                              settings.referee_batch_ms, group_id=settings.referee_group)


def bootstrap(settings: Settings, publish_rejections: bool = False, log_on_first_use: bool = False) -> Pipeline:
    """The log, and the store and the referee opened on first use (:class:`Pipeline`); the log too with
    ``log_on_first_use`` (the API, which serves reads while the broker is down)."""
    return Pipeline(settings, open_log(settings, log_on_first_use), publish_rejections)
