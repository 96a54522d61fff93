"""What one fetch did: the outcome, the page it read, and every decision on the way (SPEC 4.6)."""

from __future__ import annotations

import enum
from dataclasses import dataclass

__all__ = ["Decision", "FetchOutcome", "FetchRefused", "FetchResult", "Step"]


class FetchOutcome(str, enum.Enum):
    """How a fetch ended. Only ``READ`` has page text; every other outcome is a gap ("could not read")."""

    READ = "read"
    REFUSED_URL = "refused_url"
    """The URL (scheme, credentials, port, host name or address) may not be fetched."""
    REFUSED_ROBOTS = "refused_robots"
    """The site's robots.txt disallows citewise's user agent."""
    TOO_MANY_REDIRECTS = "too_many_redirects"
    HTTP_ERROR = "http_error"
    """The server answered with a status other than 2xx (and not a redirect)."""
    TOO_LARGE = "too_large"
    """The body (after decompression) passed the size limit."""
    TIMEOUT = "timeout"
    """The connect, read or total time limit passed."""
    CONNECT_FAILED = "connect_failed"
    """No connection (name did not resolve, refused, TLS failed, protocol error)."""
    UNSUPPORTED_TYPE = "unsupported_type"
    """A content type citewise does not read (only HTML, PDF and plain text are read)."""
    LOGIN_WALL = "login_wall"
    PAYWALL = "paywall"
    CONSENT_WALL = "consent_wall"
    JAVASCRIPT_ONLY = "javascript_only"
    """The page's text is rendered by scripts; the HTML as served has none to read."""
    EMPTY = "empty"
    """The content had no readable text."""
    UNREADABLE = "unreadable"
    """The content could not be decoded or parsed (a broken PDF, an unknown encoding)."""
    RENDER_FAILED = "render_failed"
    """The browser layer could not render the page (the browser failed or crashed)."""

    @property
    def is_wall(self) -> bool:
        """Whether the page exists but its text is not accessible to a plain fetch."""
        return self in (
            FetchOutcome.LOGIN_WALL,
            FetchOutcome.PAYWALL,
            FetchOutcome.CONSENT_WALL,
            FetchOutcome.JAVASCRIPT_ONLY,
        )


class Step(str, enum.Enum):
    """Which stage of a fetch a decision belongs to."""

    URL = "url"
    ROBOTS = "robots"
    CONNECT = "connect"
    RESPONSE = "response"
    REDIRECT = "redirect"
    BODY = "body"
    CONTENT = "content"
    DATE = "date"
    RENDER = "render"
    """A request a page made while the browser rendered it, answered by the fetcher or refused."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of a fetch, in order, for the audit record and ``citewise fetch``."""

    step: Step
    """The stage that decided."""
    allowed: bool
    """Whether the fetch went on past this decision."""
    detail: str
    """What was decided and why, e.g. ``connect 93.184.215.14:443 (resolved from example.org)``."""


class FetchRefused(Exception):
    """Raised inside the fetcher when a rule stops a fetch; carried out as a :class:`FetchResult`."""

    def __init__(
        self,
        outcome: FetchOutcome,
        step: Step,
        detail: str,
        *,
        status_code: int | None = None,
        content_type: str | None = None,
    ) -> None:
        super().__init__(detail)
        self.outcome = outcome
        self.step = step
        self.detail = detail
        self.status_code = status_code
        self.content_type = content_type


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One URL fetched and read, or the reason it could not be."""

    url: str
    """The URL as asked for."""
    final_url: str | None
    """The normalised URL of the last hop (after redirects); ``None`` when the URL itself was refused."""
    outcome: FetchOutcome
    """``READ``, or the gap's reason."""
    text: str = ""
    """The extracted text (only when ``outcome`` is ``READ``; never the text of a wall)."""
    title: str | None = None
    """The page's title when it has one."""
    content_type: str | None = None
    """The media type of the last response, lower-cased without parameters."""
    status_code: int | None = None
    """The HTTP status of the last response."""
    published_at: str | None = None
    """The original publication date (``YYYY-MM-DD``) from the page's own signals; ``None`` when the
    signals are missing or conflict. Never the retrieval time."""
    updated_at: str | None = None
    """The last-modified date the page states, kept apart from ``published_at``."""
    publication_date_source: str | None = None
    """The signal ``published_at`` came from (``json-ld datePublished``, ``meta article:published_time``,
    ``time element``, ``visible byline``, ``url``)."""
    bytes_read: int = 0
    """Body bytes read after decompression (the last response)."""
    elapsed_s: float = 0.0
    """Wall time of the whole fetch, robots.txt and redirects included."""
    decisions: tuple[Decision, ...] = ()
    """Every decision, in order."""
    rendered: bool = False
    """True when the text was read from the page as a browser rendered it (its scripts run)."""

    @property
    def ok(self) -> bool:
        """Whether usable text was read."""
        return self.outcome is FetchOutcome.READ and bool(self.text.strip())

    @property
    def reason(self) -> str:
        """The last refusing decision's detail, or the outcome's name."""
        for decision in reversed(self.decisions):
            if not decision.allowed:
                return decision.detail
        return self.outcome.value
