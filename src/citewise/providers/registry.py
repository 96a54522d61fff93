"""Search providers and extractors by name.

Built-ins register exactly as plugins do: a plugin is a module (or any object) with a
``register(registry)`` function that calls :meth:`ProviderRegistry.add_search_provider` and
:meth:`ProviderRegistry.add_extractor`. Citewise's own plugins are listed in
:data:`BUILTIN_PLUGINS`; other packages add theirs through the ``citewise.providers`` entry point
group. Plugins are loaded on the first lookup, so naming a provider costs nothing until it is used::

    from contextlib import closing
    from citewise.providers.registry import get_search_provider

    with closing(get_search_provider("tavily")) as search:   # reads TAVILY_API_KEY
        response = search.search("deposit protection 2024")

An unknown name fails with :class:`~citewise.errors.ConfigError` listing the valid ones.
"""

from __future__ import annotations

import functools
import importlib
import threading
from collections.abc import Callable, Iterable
from importlib.metadata import entry_points
from typing import Any

from citewise.errors import ConfigError
from citewise.records.providers import Extractor, SearchProvider
from citewise.registry import Registry

__all__ = [
    "BUILTIN_PLUGINS",
    "ENTRY_POINT_GROUP",
    "ExtractorFactory",
    "ProviderRegistry",
    "SearchProviderFactory",
    "extractor_names",
    "get_extractor",
    "get_search_provider",
    "register_extractor",
    "register_search_provider",
    "registry",
    "search_provider_names",
]

BUILTIN_PLUGINS: tuple[str, ...] = ("citewise.providers.tavily", "citewise.providers.local", "citewise.providers.own")
"""Modules of citewise's own providers, each with a ``register(registry)`` function."""
ENTRY_POINT_GROUP = "citewise.providers"
"""Entry point group through which other packages add providers (each names a ``register`` callable
or a module that has one)."""

SearchProviderFactory = Callable[..., SearchProvider]
"""Builds a search provider from keyword options (none: configure from the environment)."""
ExtractorFactory = Callable[..., Extractor]
"""Builds an extractor from keyword options (none: configure from the environment)."""


class ProviderRegistry:
    """Search providers and extractors by name; see the module docstring.

    ``plugins`` are imported and asked to register on the first lookup; ``entry_point_group`` (``None``
    to skip) adds installed third-party plugins.
    """

    def __init__(
        self, plugins: Iterable[str] = BUILTIN_PLUGINS, *, entry_point_group: str | None = ENTRY_POINT_GROUP
    ) -> None:
        self._plugins = tuple(plugins)
        self._entry_point_group = entry_point_group
        self._search: Registry[SearchProviderFactory] = Registry("search provider")
        self._extract: Registry[ExtractorFactory] = Registry("extractor")
        self._lock = threading.RLock()
        self._loaded = False

    # -- registration -------------------------------------------------------------------------

    def add_search_provider(self, name: str, factory: SearchProviderFactory, *, replace: bool = False) -> None:
        """Make ``factory`` available as search provider ``name``."""
        with self._lock:
            self._search.add(name, factory, replace=replace)

    def add_extractor(self, name: str, factory: ExtractorFactory, *, replace: bool = False) -> None:
        """Make ``factory`` available as extractor ``name``."""
        with self._lock:
            self._extract.add(name, factory, replace=replace)

    # -- lookup -------------------------------------------------------------------------------

    def search_provider(self, name: str, **options: Any) -> SearchProvider:
        """A new search provider ``name`` built with ``options``; unknown names raise :class:`ConfigError`."""
        self._load()
        return self._search.lookup(name)(**options)

    def extractor(self, name: str, **options: Any) -> Extractor:
        """A new extractor ``name`` built with ``options``; unknown names raise :class:`ConfigError`."""
        self._load()
        return self._extract.lookup(name)(**options)

    def search_provider_names(self) -> tuple[str, ...]:
        """Registered search provider names, sorted."""
        self._load()
        return self._search.names()

    def extractor_names(self) -> tuple[str, ...]:
        """Registered extractor names, sorted."""
        self._load()
        return self._extract.names()

    # -- plugins ------------------------------------------------------------------------------

    def _load(self) -> None:
        with self._lock:
            if self._loaded:
                return
            self._loaded = True  # set first: a plugin may look names up while registering
            try:
                for module in self._plugins:
                    self._run_plugin(module, functools.partial(importlib.import_module, module))
                if self._entry_point_group:
                    for point in entry_points(group=self._entry_point_group):
                        self._run_plugin(f"{point.name} ({point.value})", point.load)
            except BaseException:
                self._loaded = False  # a broken plugin fails every lookup, not just the first
                raise

    def _run_plugin(self, label: str, load: Callable[[], Any]) -> None:
        try:
            plugin = load()
        except ImportError as exc:
            raise ConfigError(f"provider plugin {label} cannot be loaded: {exc}") from exc
        register = getattr(plugin, "register", plugin)  # a module with register(), or register itself
        if not callable(register):
            raise ConfigError(f"provider plugin {label} has no register(registry) function")
        register(self)


registry = ProviderRegistry()
"""The registry the command line and the Python API use."""


def get_search_provider(name: str, **options: Any) -> SearchProvider:
    """A search provider by name, e.g. ``get_search_provider("tavily")``; see :class:`ProviderRegistry`."""
    return registry.search_provider(name, **options)


def get_extractor(name: str, **options: Any) -> Extractor:
    """An extractor by name, e.g. ``get_extractor("tavily")``; see :class:`ProviderRegistry`."""
    return registry.extractor(name, **options)


def register_search_provider(name: str, factory: SearchProviderFactory, *, replace: bool = False) -> None:
    """Add a search provider to the default registry (for code that is not a plugin module)."""
    registry.add_search_provider(name, factory, replace=replace)


def register_extractor(name: str, factory: ExtractorFactory, *, replace: bool = False) -> None:
    """Add an extractor to the default registry (for code that is not a plugin module)."""
    registry.add_extractor(name, factory, replace=replace)


def search_provider_names() -> tuple[str, ...]:
    """Search provider names in the default registry."""
    return registry.search_provider_names()


def extractor_names() -> tuple[str, ...]:
    """Extractor names in the default registry."""
    return registry.extractor_names()
