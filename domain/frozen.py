"""``@dataclass(frozen=True, slots=True)``, made with one generated function a class instead of six.

The standard decorator writes each method it adds (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``,
``__setattr__``, ``__delattr__``) as source text and compiles it, one ``exec`` a method: the Hand's event catalog
(:mod:`domain.hand.events`, 52 classes) spent ~40 ms of every process's start there, ``pokeraudit validate``'s
among them. Here the standard decorator still does everything but those methods (the fields, their order and
defaults, ``__dataclass_fields__``, ``__match_args__``, the slots), only ``__init__`` is compiled (it is called for
every event: the standard signature, each field set by its slot's setter), and the other five are closures over
the class's field names. What a class is made of, and so how it is stored, does not change; every observable
behaviour is the standard decorator's (``tests/unit/test_frozen_values.py`` compares every event class with one
made by the standard decorator from the same body), with one exception: assigning or deleting an attribute that
is not a field raises :class:`dataclasses.FrozenInstanceError` as for a field (Python 3.11's slotted frozen
dataclasses raise a ``TypeError`` from a ``super()`` call there; 3.12's raise ``FrozenInstanceError`` like this).

The type checkers see the standard decorator (``domain/hand/events.py`` imports this one only at run time).
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")


def frozen_dataclass(*, frozen: bool, slots: bool) -> Callable[[type[T]], type[T]]:
    """``dataclasses.dataclass(frozen=True, slots=True)``, the only form this stands in for."""
    if not (frozen and slots):
        raise TypeError("frozen_dataclass stands in for @dataclass(frozen=True, slots=True) only")
    return _make


def _make(cls: type[T]) -> type[T]:
    documented = bool(cls.__dict__.get("__doc__"))
    if not documented:
        # written below, once __init__ is made: the standard decorator would otherwise read the signature of a
        # class without one (object's text signature: inspect tokenizes it, compiling tokenize's patterns)
        cls.__doc__ = cls.__name__
    made: Any = dataclasses.dataclass(slots=True, init=False, repr=False, eq=False)(cls)
    fields = dataclasses.fields(made)
    names = tuple(field.name for field in fields)
    methods = _methods(names)
    methods["__init__"] = _init(made, fields)
    for name, method in methods.items():
        method.__qualname__ = f"{made.__qualname__}.{name}"
        setattr(made, name, method)
    # what the standard decorator's parameters say of the class (dataclasses reads `frozen` when a class inherits)
    params = made.__dataclass_params__
    params.init = params.repr = params.eq = params.frozen = True
    if not documented:
        # the standard decorator's doc for a class without one: its name and __init__'s signature, as now made
        import inspect

        made.__doc__ = made.__name__ + str(inspect.signature(made)).replace(" -> None", "")
    return made  # type: ignore[no-any-return]


def _init(cls: type, fields: tuple[dataclasses.Field[Any], ...]) -> Callable[..., None]:
    """The standard frozen ``__init__``'s signature and defaults; each field set through its slot's own setter.

    The standard one calls ``object.__setattr__(self, name, value)`` a field, which looks the slot up on the type
    and calls its setter; calling the setter itself does the same in ~40 % less time (a reported event is made
    for every act the engine replays, several per act with the ones it derives)."""
    arguments = ["self"]
    namespace: dict[str, Any] = {}
    for field in fields:
        namespace[f"_type_{field.name}"] = field.type
        namespace[f"_set_{field.name}"] = cls.__dict__[field.name].__set__  # the slot's member descriptor
        if field.default is not dataclasses.MISSING:
            namespace[f"_dflt_{field.name}"] = field.default
            arguments.append(f"{field.name}:_type_{field.name}=_dflt_{field.name}")
        elif field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: default_factory is not supported here")
        else:
            arguments.append(f"{field.name}:_type_{field.name}")
    lines = [f"  _set_{field.name}(self,{field.name})" for field in fields]
    text = (f"def __create_fn__({', '.join(namespace)}):\n def __init__({','.join(arguments)})->None:\n"
            + "\n".join(lines or ["  pass"]) + "\n return __init__\n")
    local: dict[str, Any] = {}
    # not inheriting this module's `from __future__ import annotations`: the annotations are the field types, as
    # the standard decorator's (its module has no such import)
    exec(compile(text, "<string>", "exec", dont_inherit=True), {}, local)
    init: Callable[..., None] = local["__create_fn__"](**namespace)
    return init


def _methods(names: tuple[str, ...]) -> dict[str, Callable[..., Any]]:
    """The standard frozen dataclass's other methods, as closures over the field names (no source compiled)."""

    values: Callable[[Any], tuple[Any, ...]]
    if len(names) > 1:
        values = attrgetter(*names)  # a tuple of the fields, in C: what __eq__ and __hash__ compare, as standard
    else:
        values = lambda value: tuple([getattr(value, name) for name in names])  # noqa: E731  (() or a 1-tuple)

    @reprlib.recursive_repr()
    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(values(self))

    def __setattr__(self: Any, name: str, value: Any) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self: Any, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __getstate__(self: Any) -> list[Any]:
        return list(values(self))

    def __setstate__(self: Any, state: list[Any]) -> None:
        for name, value in zip(names, state, strict=False):  # as the standard decorator's
            object.__setattr__(self, name, value)

    return {
        "__repr__": __repr__,
        "__eq__": __eq__,
        "__hash__": __hash__,
        "__setattr__": __setattr__,
        "__delattr__": __delattr__,
        "__getstate__": __getstate__,
        "__setstate__": __setstate__,
    }
