"""Typed errors of search and extraction providers.

Every failed provider call is a :class:`ProviderError`, a run error (see :mod:`citewise.errors`);
each provider maps its client's exceptions onto this tree at its boundary, with
``raise ... from exc``. A missing key is not a provider error but a
:class:`~citewise.errors.ConfigError`, raised before any call.

    RunError
    └── ProviderError                 a provider call failed; provider, status_code, request_id, detail
        ├── ProviderBadRequest        400 (and other 4xx): the request was refused as given
        ├── ProviderAuthError         401: the key is missing or invalid
        ├── ProviderForbidden         403: the key may not do this (plan, permissions)
        │   └── ProviderQuotaExceeded 432/433 (Tavily): plan or pay-as-you-go limit reached
        ├── ProviderRateLimited       429; retry_after in seconds when the provider said  (retryable)
        ├── ProviderTimeout           no answer within the client's timeout               (retryable)
        ├── ProviderUnavailable       connection failed, or 5xx                           (retryable)
        └── ProviderInvalidResponse   an answer not in the provider's wire format (often a wrong
                                      base URL answering with an HTML page)

Providers never retry (budgets must not grow invisibly); ``retryable`` tells the caller which
failures a bounded retry inside the budget may help with. Messages never contain the API key.
"""

from __future__ import annotations

from typing import ClassVar

from citewise.errors import RunError
from citewise.retry_after import retry_after_seconds

__all__ = [
    "ProviderAuthError",
    "ProviderBadRequest",
    "ProviderError",
    "ProviderForbidden",
    "ProviderInvalidResponse",
    "ProviderQuotaExceeded",
    "ProviderRateLimited",
    "ProviderTimeout",
    "ProviderUnavailable",
    "retry_after_seconds",
]


class ProviderError(RunError):
    """A search or extraction call failed."""

    retryable: ClassVar[bool] = False
    """Whether a later attempt (by the caller, inside its budget) may succeed."""

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        status_code: int | None = None,
        request_id: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.provider = provider
        """The provider's registry name, e.g. ``"tavily"``."""
        self.status_code = status_code
        """The HTTP status, when there was a response."""
        self.request_id = request_id
        """The provider's request id, when it sent one."""
        self.detail = detail
        """The provider's own error message (shortened, key removed), when it gave one."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, provider={self.provider!r}, status_code={self.status_code!r})"


class ProviderBadRequest(ProviderError):
    """The provider refused the request as given (400, or another 4xx without its own class)."""


class ProviderAuthError(ProviderError):
    """The key was rejected (401)."""


class ProviderForbidden(ProviderError):
    """The key is valid but may not do this (403): plan, permissions or a usage limit."""


class ProviderQuotaExceeded(ProviderForbidden):
    """A usage limit of the account was reached (Tavily 432: plan limit; 433: pay-as-you-go limit).

    Not retryable: waiting does not help until the plan or the limit is changed.
    """


class ProviderRateLimited(ProviderError):
    """The provider answered 429: too many requests for now."""

    retryable = True

    def __init__(
        self,
        message: str,
        *,
        provider: str,
        retry_after: float | None = None,
        status_code: int | None = 429,
        request_id: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message, provider=provider, status_code=status_code, request_id=request_id, detail=detail)
        self.retry_after = retry_after
        """Seconds to wait before trying again, from the ``retry-after`` header; ``None`` if absent."""


class ProviderTimeout(ProviderError):
    """No answer within the client's timeout."""

    retryable = True

    def __init__(self, message: str, *, provider: str, timeout_s: float | None = None) -> None:
        super().__init__(message, provider=provider)
        self.timeout_s = timeout_s
        """The timeout that was exceeded, in seconds."""


class ProviderUnavailable(ProviderError):
    """The provider could not be reached (connection refused, DNS, TLS) or failed (5xx)."""

    retryable = True


class ProviderInvalidResponse(ProviderError):
    """The provider answered, but not in its wire format (not JSON, or JSON of the wrong shape)."""
