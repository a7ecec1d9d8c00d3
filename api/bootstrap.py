"""The one composition root: settings in, the log, the store and the referee out.

Nothing connects at import time; ``bootstrap(settings)`` wires the embedded adapters (a local log file and
SQLite under POKERAUDIT_DATA_DIR) or the production ones (Kafka and PostgreSQL).
"""

from __future__ import annotations

from dataclasses import dataclass

from api.settings import Settings
from ingest.log import EmbeddedLog, Log
from ingest.referee import Referee
from ingest.store import Store, store_env


@dataclass
class Pipeline:
    settings: Settings
    log: Log
    store: Store
    referee: Referee

    def close(self) -> None:
        self.log.close()
        self.store.close()


def open_log(settings: Settings) -> Log:
    if settings.kafka_bootstrap_servers:
        from ingest.kafka_log import KafkaLog

        return KafkaLog(settings.kafka_bootstrap_servers, settings.topic, settings.partitions)
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return EmbeddedLog(settings.data_dir / "log.sqlite", settings.topic, settings.partitions)


def open_store(settings: Settings) -> Store:
    if settings.database_url:
        return Store(env=store_env(settings.database_url))
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    return Store(env=store_env(None, str(settings.data_dir / "store.sqlite")))


def bootstrap(settings: Settings, publish_rejections: bool = False) -> Pipeline:
    log = open_log(settings)
    store = open_store(settings)
    publisher = None
    if publish_rejections and settings.kafka_bootstrap_servers:
        from ingest.runners import rejections_publisher

        publisher = rejections_publisher(settings.kafka_bootstrap_servers, settings.rejections_topic, settings.partitions)
    return Pipeline(settings, log, store, Referee(store, settings.topic, publisher))
