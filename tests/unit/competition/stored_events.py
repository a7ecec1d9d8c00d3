"""What the stored-events tests share: the fixtures captured from an earlier main's stores (``stored/*.json``: the rows
its recorders wrote, and what its code read them back as), each row as eventsourcing's StoredEvent, a topic's
module and class, a long value as the fixtures keep it (the fresh SQLite store to write them again is
conftest.py's ``store``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent


def fixture(name: str) -> dict[str, Any]:
    """``stored/<name>.json``: its ``stored`` rows and, where kept, its ``streams``."""
    loaded: dict[str, Any] = json.loads((Path(__file__).parent / "stored" / f"{name}.json").read_text())
    return loaded


def stored_event(row: dict[str, Any]) -> StoredEvent:
    return StoredEvent(UUID(row["originator_id"]), row["originator_version"], row["topic"], row["state"].encode())


def topic_names(topic: str) -> tuple[str, str]:
    """A stored event's topic (``module:Owner.Name``) as its owner class's name and its own."""
    owner, name = topic.split(":")[1].split(".")
    return owner, name


def short(text: str) -> str:
    """A value as the fixtures keep a long one (a snapshot holds the whole protocol): by the SHA-256 of its text."""
    return text if len(text) <= 600 else "sha256:" + hashlib.sha256(text.encode()).hexdigest()
