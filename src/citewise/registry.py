"""Things found by name: the one lookup behind search providers, extractors, parsers, native engines
and embedders.

A :class:`Registry` maps names to entries (usually factories). Names are compared stripped and
lower-cased. The built-ins are added by a function run on first use, so naming a registry costs
nothing until something is looked up (``citewise --help`` does not import lxml or an SDK), and
entries added before that still win over a built-in of the same name. An unknown name fails with
the error the registry was made with, listing the valid names::

    >>> shapes = Registry("shape", builtins=lambda r: r.update(circle=0, square=4))
    >>> shapes.lookup(" Square ")
    4
    >>> shapes.lookup("hexagon")
    Traceback (most recent call last):
    ...
    citewise.errors.ConfigError: unknown shape 'hexagon'; valid names: circle, square

A registry is a mutable mapping, so a test can ``monkeypatch.setitem`` an entry in and out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, MutableMapping
from typing import TypeVar

from citewise.errors import ConfigError

__all__ = ["Registry", "registry_key"]

T = TypeVar("T")


def registry_key(name: str) -> str:
    """The form in which names are compared: stripped and lower-cased."""
    return name.strip().lower()


class Registry(MutableMapping[str, T]):
    """Entries of one ``kind`` by name; see the module docstring.

    ``builtins`` adds the built-in entries on first use (``None``: there are none). ``error`` is what
    an unknown name raises, worded ``unknown {kind} {name!r}; {valid}: a, b{hint}``.
    """

    def __init__(
        self,
        kind: str,
        *,
        builtins: Callable[[Registry[T]], object] | None = None,
        error: Callable[[str], Exception] = ConfigError,
        valid: str = "valid names",
        hint: str = "",
    ) -> None:
        self.kind = kind
        self._builtins = builtins
        self._error, self._valid, self._hint = error, valid, hint
        self._entries: dict[str, T] = {}
        self._early: set[str] = set()  # added before the built-ins were: a built-in does not replace them
        self._lock = threading.RLock()
        self._loaded = builtins is None

    def add(self, name: str, entry: T, *, replace: bool = True) -> None:
        """Make ``entry`` available as ``name``. With ``replace=False`` a different entry already
        under that name is a :class:`ConfigError` (two plugins claiming one name)."""
        key = registry_key(name)
        if not key:
            raise ConfigError(f"a {self.kind} needs a name")
        with self._lock:
            if not replace and key in self._entries and self._entries[key] is not entry:
                raise ConfigError(f"two plugins register the {self.kind} {key!r}; pass replace=True to override")
            if not self._loaded:
                self._early.add(key)
            self._entries[key] = entry

    def lookup(self, name: str) -> T:
        """The entry called ``name``; an unknown name raises the registry's error listing the valid ones."""
        self.load()
        entry = self._entries.get(registry_key(name))
        if entry is None:
            valid = ", ".join(sorted(self._entries)) or "none"
            raise self._error(f"unknown {self.kind} {name!r}; {self._valid}: {valid}{self._hint}")
        return entry

    def names(self) -> tuple[str, ...]:
        """The registered names, sorted."""
        self.load()
        return tuple(sorted(self._entries))

    def load(self) -> None:
        """Add the built-ins, once; a failure leaves them to be tried again at the next use."""
        with self._lock:
            if self._loaded or self._builtins is None:
                return
            self._loaded = True  # set first: a built-in may look names up while being added
            early = {key: self._entries[key] for key in self._early}
            try:
                self._builtins(self)
            except BaseException:
                self._loaded = False
                raise
            self._entries.update(early)  # what was added before the first use wins over a built-in
            self._early.clear()

    # -- the mapping ---------------------------------------------------------------------------

    def __getitem__(self, name: str) -> T:
        self.load()
        return self._entries[registry_key(name)]

    def __setitem__(self, name: str, entry: T) -> None:
        self.load()
        self.add(name, entry)

    def __delitem__(self, name: str) -> None:
        self.load()
        with self._lock:
            del self._entries[registry_key(name)]

    def __iter__(self) -> Iterator[str]:
        self.load()
        return iter(dict(self._entries))

    def __len__(self) -> int:
        self.load()
        return len(self._entries)
