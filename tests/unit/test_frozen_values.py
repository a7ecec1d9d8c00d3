"""domain/frozen.py's ``frozen_dataclass`` makes each event class of domain/hand/events.py (and the PHH reader's
hand, ingest/phh_model.py) what the standard ``@dataclass(frozen=True, slots=True)`` makes of the same body: the
same fields (their order, names, types and defaults: what the event store and the codec read), signature, doc,
slots and behaviour, instance by instance."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import sys
import types
from pathlib import Path
from typing import Any

import pytest

import domain.hand.events as events
import ingest.phh_model as phh_model
from domain.frozen import frozen_dataclass

MODULES = (events, phh_model)


def _standard_twins(original: types.ModuleType) -> dict[str, Any]:
    """A module's source run again with the standard decorator: each class as the stdlib makes it."""
    source = Path(original.__file__ or "").with_suffix(".py")
    text = source.read_text()
    ours = "from domain.frozen import frozen_dataclass as dataclass"
    assert ours in text
    module = types.ModuleType(f"standard_{original.__name__.rpartition('.')[2]}")
    sys.modules[module.__name__] = module  # dataclasses looks the class's module up
    try:
        exec(compile(text.replace(ours, "from dataclasses import dataclass"), str(source), "exec"), module.__dict__)
    finally:
        del sys.modules[module.__name__]
    return {name: value for name, value in vars(module).items()
            if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__}


TWINS = {name: twin for module in MODULES for name, twin in _standard_twins(module).items()}
CLASSES: list[Any] = [value for module in MODULES for value in vars(module).values()
                      if isinstance(value, type) and dataclasses.is_dataclass(value)
                      and value.__module__ == module.__name__]


def test_every_event_class_is_compared() -> None:
    assert len(CLASSES) == len(TWINS) >= 51
    assert {cls.__name__ for cls in CLASSES} == set(TWINS) and "PhhHand" in TWINS


def _shape(cls: type) -> list[tuple[Any, ...]]:
    return [(f.name, f.type, f.default, f.default_factory, f.init, f.repr, f.compare, f.hash, f.kw_only)
            for f in dataclasses.fields(cls)]


def _params(cls: Any) -> dict[str, Any]:
    params = cls.__dataclass_params__
    return {name: getattr(params, name) for name in params.__slots__}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_the_class_is_the_standard_decorators(cls: Any) -> None:
    twin: Any = TWINS[cls.__name__]
    assert _shape(cls) == _shape(twin)
    assert _params(cls) == _params(twin)
    assert cls.__match_args__ == twin.__match_args__
    assert cls.__slots__ == twin.__slots__
    assert cls.__doc__ == twin.__doc__
    assert str(inspect.signature(cls)) == str(inspect.signature(twin))
    assert cls.__module__ in ("domain.hand.events", "ingest.phh_model") and cls.__qualname__ == twin.__qualname__
    assert not hasattr(cls, "__weakref__") and not hasattr(twin, "__weakref__")
    # (pydantic notes its own schema on a dataclass it has met, when another test used the class in a model)
    assert sorted(k for k in cls.__dict__ if not k.startswith("__pydantic")) == sorted(twin.__dict__)
    for method in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"):
        assert getattr(cls, method).__qualname__ == f"{cls.__qualname__}.{method}"


def _arguments(cls: Any, salt: str) -> dict[str, Any]:
    return {f.name: (f.name, salt, 7) for f in dataclasses.fields(cls)}


@pytest.mark.parametrize("cls", CLASSES, ids=lambda cls: cls.__name__)
def test_instances_behave_as_the_standard_decorators(cls: Any) -> None:
    twin: Any = TWINS[cls.__name__]
    ours, theirs = cls(**_arguments(cls, "a")), twin(**_arguments(twin, "a"))
    assert not hasattr(ours, "__dict__") and not hasattr(theirs, "__dict__")  # slots only
    assert repr(ours) == repr(theirs)
    assert hash(ours) == hash(theirs)
    assert ours == cls(**_arguments(cls, "a")) and (ours != cls(**_arguments(cls, "a"))) is False
    assert (ours == cls(**_arguments(cls, "b"))) == (theirs == twin(**_arguments(twin, "b")))
    assert ours != theirs  # another class: NotImplemented both ways, as between two standard classes
    assert dataclasses.astuple(ours) == dataclasses.astuple(theirs)
    assert dataclasses.asdict(ours) == dataclasses.asdict(theirs)
    for again in (pickle.loads(pickle.dumps(ours)), copy.copy(ours), copy.deepcopy(ours)):
        assert again == ours and type(again) is cls
    fields = dataclasses.fields(cls)
    if fields:
        replaced = dataclasses.replace(ours, **{fields[0].name: "new"})
        assert getattr(replaced, fields[0].name) == "new" and replaced != ours
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot assign to field '{fields[0].name}'"):
            setattr(ours, fields[0].name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError, match=f"cannot delete field '{fields[0].name}'"):
            delattr(ours, fields[0].name)
        with pytest.raises(AttributeError):  # 3.11's standard class raises a TypeError here; ours refuses it alike
            ours.not_a_field = 1
    # the defaults, where a field has one: what only the required fields make
    required = {f.name: f.name for f in fields if f.default is dataclasses.MISSING}
    assert dataclasses.astuple(cls(**required)) == dataclasses.astuple(twin(**required))
    with pytest.raises(TypeError):
        cls(*range(len(fields) + 1))


def test_only_the_frozen_slotted_form_is_stood_in_for() -> None:
    with pytest.raises(TypeError, match="frozen=True, slots=True"):
        frozen_dataclass(frozen=False, slots=True)
    with pytest.raises(TypeError, match="default_factory"):
        frozen_dataclass(frozen=True, slots=True)(
            type("Listed", (), {"__annotations__": {"items": "list[int]"},
                                "items": dataclasses.field(default_factory=list)})
        )
