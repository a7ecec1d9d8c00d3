"""The officials of a competition and what each of them may record (the federation's roles table)."""

from domain.officials.permissions import (
    PERMISSIONS,
    Act,
    Delegation,
    NamesItsOfficial,
    Permission,
    UnknownActError,
    is_permitted,
    verify_named_recorder,
    verify_permitted,
    verify_recorded_by_named,
)

__all__ = [
    "PERMISSIONS",
    "Act",
    "Delegation",
    "NamesItsOfficial",
    "Permission",
    "UnknownActError",
    "is_permitted",
    "verify_named_recorder",
    "verify_permitted",
    "verify_recorded_by_named",
]
