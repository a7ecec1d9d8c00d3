"""The API served in-process over an embedded pipeline whose records are judged: the e2e tests' common set-up.

:func:`embedded` opens a pipeline in a scratch folder (the API's token key set), :func:`publish_judged` publishes records and
judges them, :func:`projected` projects the store into the read models, :func:`app_on` serves the app on read models
of its own; :func:`served_projected` is the last two together. Each closes what it opened.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from api.app import create_app
from api.bootstrap import Pipeline, bootstrap, open_read_models
from api.operations import publish, referee_once
from api.settings import Settings
from projections.read_models import ReadModels
from projections.runner import Projector

#: the token key of the embedded settings made here
SECRET = "test-secret-of-at-least-thirty-two-bytes"


@contextmanager
def embedded(tmp_path: Path) -> Iterator[tuple[Settings, Pipeline]]:
    """The embedded mode's settings in ``tmp_path`` (tokens signed with :data:`SECRET`) and its pipeline."""
    settings = Settings(POKERAUDIT_DATA_DIR=tmp_path, POKERAUDIT_JWT_SECRET=SECRET)  # type: ignore[call-arg]
    pipeline = bootstrap(settings)
    try:
        yield settings, pipeline
    finally:
        pipeline.close()


def publish_judged(pipeline: Pipeline, records: Iterable[tuple[bytes, bytes]]) -> dict[str, int]:
    """``records`` published and judged; the referee's counts (accepted, rejected)."""
    publish(pipeline, records, progress=False)
    return referee_once(pipeline)


@contextmanager
def projected(settings: Any, pipeline: Any) -> Iterator[Projector]:
    """A projector over the pipeline's store, caught up (it projects again when asked)."""
    projector = Projector(pipeline.store, open_read_models(settings).database)
    projector.catch_up()
    try:
        yield projector
    finally:
        projector.database.close()


@contextmanager
def app_on(settings: Any, pipeline: Any) -> Iterator[TestClient]:
    """The app over ``pipeline`` and read models of its own (``client.app.state.read_models``), served."""
    read_models = open_read_models(settings)
    try:
        with TestClient(create_app(settings, pipeline, read_models)) as served:
            yield served
    finally:
        read_models.close()


@contextmanager
def served_projected(settings: Any, pipeline: Any) -> Iterator[TestClient]:
    with projected(settings, pipeline), app_on(settings, pipeline) as served:
        yield served


def models_of(client: TestClient) -> ReadModels:
    """The read models the app served by :func:`app_on` reads."""
    models: ReadModels = client.app.state.read_models  # type: ignore[attr-defined]
    return models
