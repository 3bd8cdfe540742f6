"""Frozen attrs values that build fast, whether the library runs interpreted or compiled.

A hand makes a new `State` at every step, a `Trick` at every trick and a result at its
end, so how such a value is built is much of what a step costs. Each of these values is
a class under ``@attr.s(frozen=True, slots=True, init=False)`` with a hand-written
``__init__`` that stores its fields, finished by :func:`frozen`: attrs gives it
``attrs.fields``, ``attrs.evolve``, equality, hashing, a repr and a ``__setattr__`` that
refuses every change, and no class may extend it (:func:`sealed`).

Why not ``@attrs.frozen``: its keyword ``__init__`` stores each field through
``object.__setattr__``, which cost more than the rest of a step; and compiled with
mypyc (the library's optional compiled build), a class under a decorator mypyc does not
know is not a native class, so compiled code would read its fields by name where it
reads a native class's from the object's own struct.

Interpreted, the class's frozen ``__setattr__`` refuses its own ``__init__``'s stores
too, so :func:`frozen` makes a builder: a subclass that stores plainly, whose instance
the ``__init__`` turns into the class itself on its last line::

    if type(self) is not Trick:  # interpreted: built by the builder, sealed here
        self.__class__ = Trick

and the class's own ``__init__`` (``Trick(...)``, ``attrs.evolve``, pickling) builds
through it. Compiled, ``__init__`` stores into the native struct directly, unseen by
the frozen ``__setattr__``, once :func:`refuse_mistyped` has checked what it is given.
The engine builds each value through a module function, ``build_trick(...)``, which
returns ``Trick(..., BUILT)``: compiled code calls it natively, and the value skips the
check of fields the engine made; interpreted, :func:`frozen` puts the builder in its
place.
"""

from __future__ import annotations

import itertools
import types
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeVar, cast

import attr

from brisca.game.errors import BARE_ERRORS, StateError

__all__ = [
    "BUILT",
    "COMPILED",
    "MOST_ITEMS",
    "MOST_NESTING",
    "Kind",
    "frozen",
    "held_whole",
    "refuse_mistyped",
    "refuse_overgrown",
    "sealed",
]

F = TypeVar("F", bound=Callable[..., Any])


def _compiled() -> bool:
    """Whether this module runs compiled: a compiled function is no Python function."""
    return not isinstance(_compiled, types.FunctionType)


#: Whether the library's core runs compiled (mypyc), or as plain Python.
COMPILED = _compiled()


#: What the engine's build functions (``build_state(...)``) pass a value's ``__init__``
#: last: the fields are the engine's own, so it skips `refuse_mistyped`.
BUILT: Final = object()

#: What a field may hold, for `refuse_mistyped`: a type or a tuple of types
#: (``isinstance``), a predicate, or ``None`` for anything.
Kind = type | tuple[type, ...] | Callable[[object], bool] | None


def refuse_mistyped(cls: type, kinds: tuple[Kind, ...], values: tuple[object, ...]) -> None:
    """Refuse, before they are stored, field values not of their kind.

    Compiled, a value's ``__init__`` calls this first: storing a value of the wrong type
    would raise a TypeError whose message mypyc writes out with the whole nesting of the
    value's tuples, which a small hostile value makes take gigabytes (or overflow the C
    stack). `kinds` are at least as strict as mypyc's checks, in the order of `values`:
    those of the class's fields ``__init__`` takes.

    Raises:
        StateError: a value is not of its kind; the message names the field and the
            value's type, never the value (it may hold hidden cards).
    """
    for index in range(len(kinds)):  # an index loop: compiled, no iterator is made
        kind, value = kinds[index], values[index]
        if kind is None or type(value) is kind:  # the common case, at once
            continue
        if isinstance(kind, (type, tuple)):
            if isinstance(value, kind):
                continue
        elif kind(value):
            continue
        raise StateError(f"{_field(cls, index)} cannot hold a value of type {type(value).__name__}")
    refuse_overgrown(cls, values)


#: How deep a hand-built value's containers may nest, and how many items they may hold
#: all told, counted as hashing reaches them: a container held twice counts twice. A
#: game's values hold a few thousand items at most, and nest a few deep, but for a
#: state's trail: a pair per action, up to ``MAX_DEAL_ACTIONS`` (289).
MOST_NESTING: Final = 400
MOST_ITEMS: Final = 100_000

# What holds nothing a hash or a comparison would follow: scalars, and the types whose
# objects check what they hold as they are made (`held_whole`).
_LEAVES: Final[set[type]] = {int, str, bool, float, type(None)}


def held_whole(cls: type) -> None:
    """Let `refuse_overgrown` take objects of `cls` without looking inside: they are
    immutable and hold only such objects, whatever Python code does (`Card`, `Suit`, and
    `Rules`, which checks each option as it is set). Not the library's own values: one
    checked alone may hold another, and their nesting would add up unseen."""
    _LEAVES.add(cls)


def refuse_overgrown(cls: type, values: tuple[object, ...], most_items: int = MOST_ITEMS) -> None:
    """Refuse field values whose containers (tuples, lists, sets, dicts and attrs
    instances) nest deeper than `MOST_NESTING` or hold more than `most_items` items all
    told. Both builds check what is built by hand, pickled or evolved; the engine's own
    values skip it. A match's values, which hold every hand of a match, take a larger
    budget (`brisca.game.match`).

    Python hashes a tuple by hashing each item, anew at every call and by recursion in
    C: a tuple nested a million deep overflows the C stack and kills the interpreter, and
    a dozen tuples, each holding the next ten times, take 10**12 steps to hash. Equality
    and repr recurse the same way, and mypyc writes such a tuple out into its TypeErrors.
    So a value that holds one is refused as it is made, whatever reads it later.

    Raises:
        StateError: naming the field, never the value.
    """
    budget = most_items
    for index in range(len(values)):
        value = values[index]
        if type(value) in _LEAVES:
            continue
        pending: list[tuple[object, int]] = [(value, 0)]
        while pending:
            item, depth = pending.pop()
            found = _contents(item)
            if found is None:
                continue
            size, items = found
            budget -= size
            if budget < 0 or (size and depth >= MOST_NESTING):
                raise StateError(
                    f"{_field(cls, index)} cannot hold a value nested more than "
                    f"{MOST_NESTING} deep or of more than {most_items} items"
                )
            for child in items:
                if type(child) not in _LEAVES:
                    pending.append((child, depth + 1))


def _field(cls: type, index: int) -> str:
    """``Class.field`` of the `index`-th field ``__init__`` takes, for a refusal."""
    return f"{cls.__name__}.{[a.name for a in attr.fields(cls) if a.init][index]}"


def _contents(item: object) -> tuple[int, Iterable[object]] | None:
    """How many items `item` holds that a hash, comparison or pickle of it reaches, and
    those items, read by the container's own C methods (a subclass's ``__iter__`` may
    never end); ``None`` for anything else."""
    kind = type(item)
    try:
        if kind is tuple:
            return tuple.__len__(item), tuple.__iter__(item)  # type: ignore[arg-type]
        if isinstance(item, tuple):
            found: tuple[int, Iterable[object]] = tuple.__len__(item), tuple.__iter__(item)
        elif isinstance(item, list):
            found = list.__len__(item), list.__iter__(item)
        elif isinstance(item, frozenset):
            found = frozenset.__len__(item), frozenset.__iter__(item)
        elif isinstance(item, set):
            found = set.__len__(item), set.__iter__(item)
        elif isinstance(item, dict):
            found = 2 * dict.__len__(item), itertools.chain(dict.keys(item), dict.values(item))
        elif attr.has(kind):
            fields = attr.fields(kind)
            return len(fields), [getattr(item, f.name, None) for f in fields]
        else:
            return None
        extra = getattr(item, "__dict__", None)  # a subclass's attributes, which pickle reads
        if type(extra) is dict and extra:
            return found[0] + len(extra), itertools.chain(found[1], dict.values(extra))
        return found
    except BARE_ERRORS:  # what cannot be read, no hash or comparison reads either
        return None


def frozen(cls: type[Any], build: F, kinds: tuple[Kind, ...] | None = None) -> F:
    """Finish `cls`, a class under ``@attr.s(frozen=True, slots=True, init=False)`` with a
    hand-written ``__init__`` (see the module's docs); return what builds it.

    `build` is a function of the same arguments that returns ``cls(...)``: compiled, the
    library calls it natively, so it is returned as it is; interpreted, the builder is
    returned in its place, one call fewer. `cls` takes no subclass from then on (`sealed`).
    `kinds` are the kinds of the fields ``__init__`` takes, which compiled it checks with
    `refuse_mistyped` as a value is built by hand: interpreted, the same check follows
    the stores, so both builds refuse the same values.
    """
    init = cls.__dict__["__init__"]
    if not isinstance(init, types.FunctionType):
        # Compiled: mypyc keeps of the slotted class attrs made only its fields, so attrs
        # makes the rest (equality, hashing, the repr, the frozen __setattr__) again, in
        # place on the native class, whose __init__ stores into the struct unseen by them.
        again = {a.name: _again(a) for a in attr.fields(cls)}
        attr.s(these=again, auto_detect=True, frozen=True, init=False, order=False)(cls)
        sealed(cls)
        return build
    # Interpreted: a subclass that stores plainly (under both names of the setattr slot,
    # or Python would send every store through the frozen one), with the same slots.
    builder = type(
        cls.__name__,
        (cls,),
        {
            "__slots__": (),
            "__setattr__": object.__setattr__,
            "__delattr__": object.__delattr__,
            "__init__": init,
            "__module__": cls.__module__,
            "__qualname__": cls.__qualname__,
        },
    )

    given = [a.name for a in attr.fields(cls) if a.init]

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "__class__", builder)
        try:
            init(self, *args, **kwargs)
            # Built by hand (the engine builds through the builder): as compiled, see there.
            values = tuple(getattr(self, name) for name in given)
            if kinds is None:
                refuse_overgrown(cls, values)
            else:
                refuse_mistyped(cls, kinds, values)
        except BaseException:
            # Frozen again, whatever the call did: `value.__init__(...)` must not leave a
            # value open to changes.
            object.__setattr__(self, "__class__", cls)
            raise

    __init__.__doc__ = init.__doc__
    __init__.__wrapped__ = init  # type: ignore[attr-defined]  # its signature, for help()
    cls.__init__ = __init__
    sealed(cls)
    return cast(F, builder)


def sealed(cls: type) -> None:
    """Make `cls` take no subclass: compiled, a class of Python code cannot extend a native
    class (its objects fail to be made), so neither build lets one be defined.

    Raises:
        TypeError: at the definition of a subclass, as Python does for ``bool``.
    """

    def __init_subclass__(subclass: type, **options: Any) -> None:
        raise TypeError(f"{cls.__qualname__} takes no subclass: see brisca.game.values")

    cls.__init_subclass__ = classmethod(__init_subclass__)  # type: ignore[assignment,arg-type]


def _again(a: attr.Attribute[Any]) -> Any:
    """``attr.ib(...)`` of the options field `a` was made with."""
    return attr.ib(
        default=a.default,
        repr=a.repr,
        eq=getattr(a, "eq_key", None) or a.eq,  # a key function, where one was given
        order=getattr(a, "order_key", None) or a.order,
        hash=a.hash,
        init=a.init,
        kw_only=a.kw_only,
        alias=a.alias,
    )
