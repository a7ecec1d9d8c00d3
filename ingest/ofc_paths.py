"""Which paths hold OFC round histories (``*.ofc.json``, docs/OFC_FORMAT.md), told by name alone: ``pokeraudit
validate`` sorts its paths with this before it knows whether it needs the OFC reader at all."""

from __future__ import annotations

from pathlib import Path

SUFFIX = ".ofc.json"


def is_history_path(path: str | Path) -> bool:
    return str(path).endswith(SUFFIX)
