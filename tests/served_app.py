"""The API served in-process over an embedded pipeline whose records are judged: the read models projected
first, then the app on them, everything it opened closed afterwards (the e2e tests' common fixture tail)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient

from api.app import create_app
from api.bootstrap import open_read_models
from projections.runner import Projector


@contextmanager
def served_projected(settings: Any, pipeline: Any) -> Iterator[TestClient]:
    projector = Projector(pipeline.store, open_read_models(settings).database)
    projector.catch_up()
    read_models = open_read_models(settings)
    with TestClient(create_app(settings, pipeline, read_models)) as served:
        yield served
    read_models.close()
    projector.database.close()
