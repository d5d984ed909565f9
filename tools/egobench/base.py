"""What the four EgoBench scenario environments share.

An environment is a plain Python object whose public tool methods have exactly the
parameter names of the reference implementation (TOOLS.md section 7). That matters for
scoring: the official scorer filters call parameters by the *implementation's*
signature (SCORING.md A3), and calls are executed as ``method(**parameters)`` so that
missing or unexpected arguments fail the way they do in the reference.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable, ClassVar, TypeVar

from egoeval.tools.canonical import frozen_section, sha256_hex, snapshot_text

E = TypeVar("E", bound="ScenarioEnv")

NUTRITION_FIELDS = (
    "basis", "serving_size_g", "calories_kcal", "protein_g", "fat_g",
    "carbs_g", "sugar_g", "sodium_mg", "fiber_g",
)


def tool(fn: Callable) -> Callable:
    """Mark a method as a documented, agent-callable tool."""
    fn.__egoeval_tool__ = True  # type: ignore[attr-defined]
    return fn


def member(fn: Callable) -> Callable:
    """Mark a method as callable by name although it is not a documented tool.

    The reference dispatches any member of its database object (SCORING.md Q15), so
    its internal helpers are reachable from a tool call too.
    """
    fn.__egoeval_member__ = True  # type: ignore[attr-defined]
    return fn


def nutrition_record(data: Any, default_basis: str | None = None) -> dict:
    """A nine-field nutrition record from seed data (missing fields are null)."""
    data = data if isinstance(data, dict) else {}
    record = {name: data.get(name) for name in NUTRITION_FIELDS}
    if record["basis"] is None and default_basis is not None:
        record["basis"] = default_basis
    return record


def nutrition_from_input(data: Any) -> dict:
    """A nutrition record from agent input: only the nine keys, ``basis`` required."""
    if not isinstance(data, dict):
        raise TypeError(f"nutrition must be an object, not {type(data).__name__}")
    unknown = [k for k in data if k not in NUTRITION_FIELDS]
    if unknown:
        raise TypeError(f"unexpected nutrition field {unknown[0]!r}")
    if "basis" not in data:
        raise TypeError("nutrition is missing the required field 'basis'")
    return {name: data.get(name) for name in NUTRITION_FIELDS}


def lower_list(values: Any) -> list:
    """Lower-case every element (a string argument is iterated, as in Python)."""
    return [v.lower() for v in values]


def fuzzy_matches(query: Any, entries: dict[str, dict]) -> list[dict]:
    """Bidirectional containment lookup (TOOLS.md 2.1), in catalog order.

    Stored names are lower-cased on insertion, so only the query needs lowering.
    """
    q = query.lower()
    return [e for e in entries.values() if q in e["name"] or e["name"] in q]


def normalise_result(value: Any) -> Any:
    """How the runner normalises a tool's return value before logging it (TOOLS.md 1.5)."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return value
        value = round(value, 10)
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: normalise_result(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [normalise_result(v) for v in value]
    return value


def error(message: str, **extra: Any) -> dict:
    return {"status": "error", "message": message, **extra}


def success(message: str, **extra: Any) -> dict:
    return {"status": "success", "message": message, **extra}


def copy_entry(entry: Any) -> Any:
    """A private copy of one user's entry: its lines are mutated in place by tools."""
    if isinstance(entry, dict):
        return {k: dict(v) if isinstance(v, dict) else v for k, v in entry.items()}
    return list(entry)


class CopyOnWrite:
    """Share sections between clones until one of them writes.

    Replaying thousands of calls means thousands of fresh environments, and hashing
    each final state. Copying and re-serialising whole catalogs and every user's cart
    for each would dominate scoring time, although a replay touches a few entries.

    - ``cow_attrs`` (catalogs): shared after :meth:`_share`; a writer asks
      :meth:`_writable` first, which shallow-copies the section for this object only.
      Entries are never mutated in place (writers replace them).
    - ``user_attrs`` (carts, orders, menus, lists: ``{user: entry}``): shared the same
      way, and each user's entry is copied on its first write (:meth:`_user_entry`),
      since tools mutate lines in place.

    A shared section or entry is never mutated by anyone, so its canonical text can be
    cached by identity (:meth:`_section`, :meth:`_users_section`).
    """

    cow_attrs: ClassVar[tuple[str, ...]] = ()
    user_attrs: ClassVar[tuple[str, ...]] = ()

    def _share(self, other: "CopyOnWrite") -> None:
        attrs = self.cow_attrs + self.user_attrs
        for attr in attrs:
            setattr(other, attr, getattr(self, attr))
        for obj in (other, self):  # the source must copy before writing, too
            obj._shared = set(attrs)
            obj._own_users = {attr: set() for attr in self.user_attrs}

    def _replace(self, attr: str, value: Any) -> None:
        """Give this object a new section of its own (nothing shared any more)."""
        setattr(self, attr, value)
        getattr(self, "_shared", set()).discard(attr)
        getattr(self, "_own_users", {}).pop(attr, None)

    def _writable(self, attr: str) -> dict:
        shared = getattr(self, "_shared", None)
        if shared and attr in shared:
            setattr(self, attr, dict(getattr(self, attr)))
            shared.discard(attr)
        return getattr(self, attr)

    def _user_entry(self, attr: str, user: Any, create: Callable[[], Any] | None = None) -> Any:
        """``user``'s entry of a per-user section, private to this object, for writing.

        Missing entries are created with ``create()`` (or None is returned). An
        unhashable ``user`` raises TypeError before anything changes, as a plain dict
        lookup would.
        """
        users = getattr(self, attr)
        owned = getattr(self, "_own_users", {}).get(attr)
        if user not in users:
            if create is None:
                return None
            entry = self._writable(attr)[user] = create()
        elif owned is not None and user not in owned:
            entry = self._writable(attr)[user] = copy_entry(users[user])
        else:
            return users[user]
        if owned is not None:
            owned.add(user)
        return entry

    def _set_user(self, attr: str, user: Any, entry: Any) -> None:
        """Give ``user`` a new, private entry."""
        self._writable(attr)[user] = entry
        owned = getattr(self, "_own_users", {}).get(attr)
        if owned is not None:
            owned.add(user)

    def _section(self, attr: str, project: Callable[[Any], Any], freeze: bool, round_digits: int | None) -> Any:
        """A snapshot section; Frozen (cached canonical text) when it is shared."""
        source = getattr(self, attr)
        shared = getattr(self, "_shared", None)
        if freeze and shared and attr in shared:
            return frozen_section(source, project, round_digits)
        return project(source)

    def _users_section(self, attr: str, project: Callable[[Any], Any], freeze: bool,
                       round_digits: int | None) -> dict:
        """A per-user snapshot section; shared entries come as Frozen text."""
        users = getattr(self, attr)
        owned = getattr(self, "_own_users", {}).get(attr) if freeze else None
        if owned is None:
            return {u: project(e) for u, e in users.items()}
        return {u: project(e) if u in owned else frozen_section(e, project, round_digits) for u, e in users.items()}


class ScenarioEnv(CopyOnWrite):
    """Base class: member discovery, dispatch by name, seed loading and cloning."""

    scenario: ClassVar[str] = ""
    #: name -> parameter names, for every member callable by name (tools and helpers)
    members: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: names of the documented tools only
    tools: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        members: dict[str, tuple[str, ...]] = {}
        tools: list[str] = []
        for name in dir(cls):
            fn = getattr(cls, name, None)
            if getattr(fn, "__egoeval_tool__", False):
                tools.append(name)
            elif not getattr(fn, "__egoeval_member__", False):
                continue
            params = tuple(inspect.signature(fn).parameters)[1:]  # drop self
            members[name] = params
        # Calling the constructor by name re-initialises the object: an empty state.
        members["__init__"] = ()
        cls.members = members
        cls.tools = tuple(sorted(tools))

    # --- construction -------------------------------------------------------------
    def __init__(self) -> None:
        self._shared: set[str] = set()
        self._own_users: dict[str, set] = {}  # no entry: every user's entry is private
        self.reset()

    def reset(self) -> None:  # pragma: no cover - every scenario overrides it
        raise NotImplementedError

    @classmethod
    def from_seed(cls: type[E], seed: dict) -> E:
        env = cls()
        env.load(seed)
        return env

    def load(self, seed: dict) -> None:  # pragma: no cover - every scenario overrides it
        raise NotImplementedError

    def clone(self: E) -> E:
        """A fresh copy of the state; big sections are shared copy-on-write."""
        env = type(self).__new__(type(self))
        self._share(env)
        return env

    @member
    def init_from_json(self, data: dict) -> None:
        """The seed loader, reachable by name as in the reference (Q15)."""
        self.load(data)

    # --- dispatch -----------------------------------------------------------------
    @classmethod
    def params_of(cls, name: Any) -> tuple[str, ...] | None:
        """Parameter names of a member, or None when ``name`` is not a member."""
        return cls.members.get(name) if isinstance(name, str) else None

    def invoke(self, name: str, params: Any) -> Any:
        """Call member ``name`` with ``params`` as keyword arguments; may raise.

        The return value may share lists and dicts with the state (as the reference's
        does): treat it as read-only, or go through the tool registry, which returns
        a normalised copy as JSON text.
        """
        if name not in self.members:
            raise KeyError(name)
        return getattr(self, name)(**params)

    # --- scoring hooks --------------------------------------------------------------
    def catalog_names(self) -> list[str]:
        """Names the fuzzy name test looks up (SCORING.md A4); none by default."""
        return []

    def apply_profile(self, profile: Any) -> None:
        """Adopt the behaviour switches of a scoring profile before a replay (none here)."""

    # --- state --------------------------------------------------------------------
    def snapshot(self, freeze: bool = False, round_digits: int | None = None) -> dict:  # pragma: no cover
        """The state document that is hashed (SCORING.md A6).

        With ``freeze``, shared sections come as :class:`Frozen` text (see
        ``egoeval.tools.canonical.snapshot_text``); ``round_digits`` must then be the
        rounding the hash will use.
        """
        raise NotImplementedError

    def state_hash(self, round_digits: int | None = None) -> str:
        return sha256_hex(snapshot_text(self.snapshot(True, round_digits), round_digits))
