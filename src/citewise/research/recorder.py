"""Recording a research run: each event is appended to the audit store and applied to the state in
one step, so the live state is always exactly the fold of what was recorded.

On resume, the part of a round that was already recorded is run again against its recorded
outcomes (:class:`~citewise.research.round.RecordedCalls`); the events that replay produces are
matched against the stored ones and applied without being stored twice (:meth:`Recorder.replaying`).
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

from citewise.audit.events import Event, encode
from citewise.research.state import ResearchState, apply

__all__ = ["Progress", "Recorder", "event_key"]

Progress = Callable[[Event, ResearchState], None]
"""``progress(event, state)`` after each recorded event (for a live display)."""


def event_key(event: Event) -> str:
    """The identity of an event's content (canonical JSON), for matching a replay to the record."""
    kind, payload = encode(event)
    return kind + json.dumps(payload, ensure_ascii=False, sort_keys=True)


class Recorder:
    """Appends events of one run and applies them to its state."""

    def __init__(
        self, append: Callable[[Event], object], state: ResearchState, progress: Progress | None = None
    ) -> None:
        self.append = append
        """Where events are stored (``lambda e: run_store.append(run_id, e)``; a list's append in tests)."""
        self.state = state
        self.progress = progress
        self._replay: Counter[str] = Counter()
        self._lock = threading.RLock()  # a speculative draft's calls are recorded from its own thread

    def record(self, event: Event) -> bool:
        """Record ``event`` and apply it; False when it was already recorded (a replayed step). One
        event at a time, from any thread: each is stored and applied before the next."""
        with self._lock:
            key = event_key(event) if self._replay else None
            new = True
            if key is not None and self._replay[key] > 0:
                self._replay[key] -= 1
                new = False
            else:
                self.append(event)
            apply(self.state, event)
            if self.progress is not None:
                self.progress(event, self.state)
            return new

    @contextmanager
    def replaying(self, recorded: Iterable[Event]) -> Iterator[None]:
        """While inside, events equal to one of ``recorded`` are applied but not stored again."""
        self._replay = Counter(event_key(e) for e in recorded)
        try:
            yield
        finally:
            self._replay = Counter()
