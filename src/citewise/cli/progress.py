"""The research progress display on the terminal: the step in progress (:mod:`citewise.research.progress`)
with elapsed time and budget counters.

:class:`ResearchProgress` shows the step with the budget counters on stderr: a live line (spinner,
elapsed time ticking) on a terminal, and one plain line per change of step otherwise (logs, CI).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.live import Live
from rich.spinner import Spinner
from rich.table import Table
from rich.text import Text

from citewise.audit.events import (
    Event,
)
from citewise.prices import PriceTable
from citewise.research.progress import (
    Counters,
    Step,
    StepKind,
    counters,
    elapsed_text,
    render_counters,
    step_after,
    worth_a_line,
)
from citewise.research.state import ResearchState
from citewise.text.citations import cited_ids
from citewise.text.terminal import terminal_safe

if TYPE_CHECKING:
    from citewise.cost.ledger import CostLedger
    from citewise.research.context import ResearchResult

__all__ = ["ResearchProgress", "research_summary"]


# -- the display ------------------------------------------------------------------------------------


class _Line:
    """The live line, rendered afresh on every refresh so the elapsed time ticks between events."""

    def __init__(self, progress: ResearchProgress) -> None:
        self.progress = progress
        self.spinner = Spinner("dots")

    def __rich__(self) -> Table:
        p = self.progress
        grid = Table.grid(padding=(0, 1))
        grid.add_row(
            self.spinner,
            Text(terminal_safe(p.step.describe()), style="bold"),
            Text(f"{elapsed_text(p.elapsed())} · {render_counters(p.counters)}" if p.counters else "", style="dim"),
        )
        return grid


class ResearchProgress:
    """The step in progress on ``console`` (stderr) while a research run works.

    Use as a context manager; its :meth:`update` is the loop's progress callback. On a terminal a
    live line with a spinner; elsewhere one plain line each time the step changes.
    """

    def __init__(
        self, console: Console, prices: PriceTable | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.console = console
        self.prices = prices
        self.clock = clock
        self.started = clock()
        self.step = Step(StepKind.STARTING)
        self.counters: Counters | None = None
        self._live: Live | None = None
        self._shown: Step | None = None

    def elapsed(self) -> float:
        """Seconds since the display started."""
        return self.clock() - self.started

    def __enter__(self) -> ResearchProgress:
        if self.console.is_terminal:
            self._live = Live(Group(_Line(self)), console=self.console, transient=True, refresh_per_second=8)
            self._live.__enter__()
        return self

    def update(self, event: Event, state: ResearchState) -> None:
        """Take in one recorded event."""
        step = step_after(event, state)
        if step is not None:
            self.step = step
        self.counters = counters(state, self.prices)
        if self._live is None and worth_a_line(self._shown, self.step):
            self._shown = self.step
            described = terminal_safe(self.step.describe())  # a step names queries and pages' URLs
            line = f"[{elapsed_text(self.elapsed()):>8}] {described} · {render_counters(self.counters)}"
            self.console.print(line, highlight=False, markup=False, soft_wrap=True)

    def engine(self, step: Any) -> None:
        """What a native engine is doing now (its streamed call reports as it goes)."""
        detail = f"{step.step}: {step.detail}" if step.detail else str(step.step)
        self.step = Step(StepKind.ENGINE, detail=detail)
        if self._live is None and worth_a_line(self._shown, self.step):
            self._shown = self.step
            self.console.print(
                f"[{elapsed_text(self.elapsed()):>8}] {terminal_safe(self.step.describe())}",
                highlight=False,
                markup=False,
                soft_wrap=True,
            )

    def __exit__(self, *exc: Any) -> None:
        if self._live is not None:
            self._live.__exit__(None, None, None)
            self._live = None


# -- the final summary ------------------------------------------------------------------------------


def research_summary(result: ResearchResult, cost: CostLedger | None, elapsed_s: float) -> str:
    """One line after the report: acceptance, sources, budget used, cost, time and the run id."""
    if result.acceptance is None:
        verdict = "not verified"
    else:
        verdict = "accepted" if result.acceptance.accepted else "not accepted"
    stored = {s.source_id for s in result.sources}
    cited = len([i for i in cited_ids(result.body or "") if i in stored])  # in the delivered, verified body
    parts = [
        verdict,
        f"{len(result.sources)} sources ({cited} cited)" if result.sources else "no sources",
        f"stopped: {result.stop_reason.value.replace('_', ' ')}",
        f"searches {result.usage.searches} · pages {result.usage.extractions} · tokens {result.usage.tokens:,}",
    ]
    if cost is not None:
        amount = f"${cost.measured:.4f}"
        unpriced = "" if cost.complete else " at least (a model is not in the price table)"
        parts.append(f"cost{unpriced} {amount}")
    parts += [elapsed_text(elapsed_s), f"run {result.run_id}"]
    return " · ".join(parts)
