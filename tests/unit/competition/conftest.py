"""The stored-events tests' fresh store (stored_events.py has the rest of what they share)."""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite("competition.stored_events")

from ingest.store import Store, store_env  # noqa: E402 (after the rewrite is registered)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    """A fresh SQLite store for the module's tests to write the rows again."""
    return Store(env=store_env(None, str(tmp_path_factory.mktemp("store") / "store.sqlite")))
