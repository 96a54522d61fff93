"""The citewise exception tree.

Every error citewise raises on purpose derives from :class:`CitewiseError`. The tree keeps
*user errors* (the caller can fix the input or configuration) apart from *run errors* (something
failed while doing the work):

    CitewiseError
    ├── UserError                 bad input or configuration; the message says how to fix it
    │   ├── ConfigError           a setting is missing or invalid
    │   ├── InputError            a file or value given to citewise cannot be used
    │   │   └── ParseError        a document could not be parsed (names the file and the reason)
    │   ├── NotFoundError         a document, version or section that does not exist was named
    │   └── ReviewError           a review action that is not allowed (e.g. approving twice)
    └── RunError                  the work itself failed
        └── StoreError            the store is unusable (schema too new, integrity failure)

Errors are mapped at the boundary with ``raise ... from exc`` so the original cause is kept.
Messages never contain secrets.
"""

from __future__ import annotations

__all__ = [
    "CitewiseError",
    "ConfigError",
    "InputError",
    "NotFoundError",
    "ParseError",
    "ReviewError",
    "RunError",
    "StoreError",
    "UserError",
]


class CitewiseError(Exception):
    """Base of every error citewise raises on purpose."""


class UserError(CitewiseError):
    """The caller can fix this: bad input, bad configuration, an unknown name."""


class ConfigError(UserError):
    """A setting is missing or invalid."""


class InputError(UserError):
    """A file or value given to citewise cannot be used."""


class ParseError(InputError):
    """A document could not be parsed.

    ``path`` names the file (or other origin) and the message says what was wrong with it.
    """

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        self.detail = message
        """The message without the path."""
        super().__init__(f"{path}: {message}" if path else message)

    def __reduce__(self) -> tuple[object, ...]:
        # Pickled with its path (a file parsed in a bounded child process comes back through pickle).
        return (_rebuild_parse_error, (type(self), self.detail, self.path))


def _rebuild_parse_error(cls: type[ParseError], message: str, path: str | None) -> ParseError:
    return cls(message, path=path)


class NotFoundError(UserError):
    """A document, version or section that does not exist was named."""


class ReviewError(UserError):
    """A review action that is not allowed in the current state."""


class RunError(CitewiseError):
    """The work itself failed (a store, a provider, a budget)."""


class StoreError(RunError):
    """The store cannot be used as it is."""
