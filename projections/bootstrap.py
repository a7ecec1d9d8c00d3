"""Settings in, the read models out: PostgreSQL when DATABASE_URL is set, else SQLite under the data folder.

Nothing connects at import time.
"""

from __future__ import annotations

from projections.database import PostgresReadDatabase, ReadDatabase, ReadSettings, SqliteReadDatabase
from projections.read_models import ReadModels

READ_MODELS_FILE = "read.sqlite"


def open_read_database(settings: ReadSettings) -> ReadDatabase:
    if settings.database_url:
        return PostgresReadDatabase(settings.database_url)
    return SqliteReadDatabase(settings.data_dir / READ_MODELS_FILE)


def open_read_models(settings: ReadSettings) -> ReadModels:
    return ReadModels(open_read_database(settings))
