"""``citewise ask``: a grounded answer from eligible evidence, with the path that produced it."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import unquote

import typer

from citewise.cli.common import (
    ExitCode,
    JsonOpt,
    StoreOpt,
    console,
    emit_json,
    handle_errors,
    open_api,
    shown,
    shown_body,
    to_jsonable,
)
from citewise.errors import CitewiseError, InputError

if TYPE_CHECKING:
    from citewise.answer.result import AskResult

__all__ = ["ask"]

_LABELS = {
    "model_answer_accepted": "model answer (validated)",
    "deterministic_evidence_fallback": "deterministic evidence composer",
    "no_eligible_evidence": "no eligible evidence",
    "clarification": "clarification needed",
    "handoff": "handoff",
}


def _model_client(model: str | None, no_model: bool) -> tuple[Any, str | None]:
    """A chat client and writer model when both are configured; otherwise (None, None)."""
    if no_model:
        return None, None
    from citewise.llm import ChatClient, model_configured

    writer = model or os.environ.get("WRITER_MODEL") or None
    if not writer or not model_configured():
        return None, None
    return ChatClient.from_env(), writer


@handle_errors
def ask(
    question: Annotated[str, typer.Argument(help="The question.")],
    pair: Annotated[list[str] | None, typer.Option("--pair", help="Allowed DOC_ID:SECTION_ID (repeatable).")] = None,
    doc: Annotated[list[str] | None, typer.Option("--doc", help="Allowed document id (repeatable).")] = None,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            "--origin", help="Allowed origin: a host (subdomains too) or a URL (scheme, host, port, path segments)."
        ),
    ] = None,
    as_of: Annotated[str | None, typer.Option("--as-of", help="Use the versions in force on YYYY-MM-DD.")] = None,
    require_use: Annotated[list[str] | None, typer.Option("--require-use", help="Required permitted use.")] = None,
    plan_file: Annotated[Path | None, typer.Option("--plan", help="Retrieval plan file (JSON or YAML).")] = None,
    mode: Annotated[str, typer.Option("--mode", help="active, or shadow (return --existing-answer).")] = "active",
    existing_answer: Annotated[
        Path | None, typer.Option("--existing-answer", help="Shadow mode: file with the existing answer.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Writer model id (default: WRITER_MODEL).")] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Use the deterministic composer only.")] = False,
    ranker: Annotated[
        str,
        typer.Option(
            "--ranker",
            help="answer (sentences that answer the question first; default), lexical (search order) "
            "or embedding (offline MiniLM rerank; English).",
        ),
    ] = "answer",
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", help="Token cap of the model call (CITEWISE_MAX_TOKENS).")
    ] = None,
    max_cost: Annotated[
        float | None, typer.Option("--max-cost", help="Money cap of the model call in USD (CITEWISE_MAX_COST).")
    ] = None,
    prices: Annotated[
        str | None, typer.Option("--prices", help="Price table for --max-cost (CITEWISE_PRICES; else built-in).")
    ] = None,
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Return the composed answer without checking its claims (recorded).")
    ] = False,
    unsupported: Annotated[
        str, typer.Option("--unsupported", help="remove (default) or mark factual claims verification did not support.")
    ] = "remove",
    store: StoreOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Answer from approved, eligible evidence only: an answer with citations (verified claim by claim
    before it is shown), a clarifying question, a handoff, or "no eligible evidence". Works with no API
    key (deterministic composer)."""
    from citewise.answer.ask import ask as run_ask
    from citewise.answer.result import DEFAULT_HANDOFF, AskSettings
    from citewise.cli.research import unsupported_action
    from citewise.evidence.plan import RetrievalPlan, load_plan
    from citewise.records.budget import budget_from_env
    from citewise.research.configure import priced_models

    if ranker not in ("answer", "lexical", "embedding"):
        raise InputError(f"unknown ranker {ranker!r}; valid rankers: answer, lexical, embedding")
    if mode not in ("active", "shadow"):
        raise InputError(f"unknown mode {mode!r}; valid modes: active, shadow")
    if mode == "shadow" and existing_answer is None:
        raise InputError("shadow mode needs --existing-answer FILE (the answer the existing path gave)")
    existing = existing_answer.read_text(encoding="utf-8") if existing_answer else None
    budget = budget_from_env(max_tokens=max_tokens, max_cost_usd=max_cost)
    client, writer = _model_client(model, no_model)
    try:
        table = priced_models(budget, prices, [writer])  # a cap that cannot be kept refuses to start
    except CitewiseError:
        if client is not None:
            client.close()
        raise
    with open_api(store) as api:
        if plan_file is not None:
            if pair or doc or origin or as_of or require_use:
                raise InputError("give the plan either as --plan FILE or as options, not both")
            plan = load_plan(plan_file, api.store)
        else:
            plan = RetrievalPlan.from_values(
                api.store,
                pairs=pair or (),
                docs=doc or (),
                origins=origin or (),
                as_of=as_of,
                require_use=require_use or (),
            )
        extra: dict[str, Any] = {}
        if ranker == "lexical":
            from citewise.evidence.rank import LexicalRanker

            extra["ranker"] = LexicalRanker()
        if ranker == "embedding":
            from citewise.evidence.rerank import EmbeddingReranker

            extra["ranker"] = EmbeddingReranker()  # fails here, naming what to install, if the model is absent
        settings = AskSettings(
            **extra,
            mode=mode,
            client=client,
            model=writer,
            existing_answer=existing,
            handoff_target=os.environ.get("CITEWISE_HANDOFF") or DEFAULT_HANDOFF,
            budget=budget,
            prices=table,
            verify=not no_verify,
            unsupported=unsupported_action(unsupported),
        )
        try:
            result = run_ask(api.store, question, plan, settings)
        finally:
            if client is not None:
                client.close()
    code = ask_exit_code(result)
    if json_out:
        emit_json({**to_jsonable(result), "exit_code": int(code)})
    else:
        _print(result)
    if code is not ExitCode.ACCEPTED:
        raise typer.Exit(int(code))


def ask_exit_code(result: AskResult) -> ExitCode:
    """0 for an accepted answer (and in shadow mode, which returns the existing answer unchanged); 4 when
    nothing was eligible; 3 for anything else delivered (an answer not accepted or not verified, a
    clarification, a handoff)."""
    from citewise.records.answer import AskOutcome

    if result.shadow is not None:
        return ExitCode.ACCEPTED
    if result.outcome is AskOutcome.NO_ELIGIBLE_EVIDENCE:
        return ExitCode.NO_EVIDENCE
    if result.acceptance is not None and result.acceptance.accepted:
        return ExitCode.ACCEPTED
    return ExitCode.NOT_ACCEPTED


def _print(result: AskResult) -> None:
    if result.acceptance is not None:
        verdict = "accepted" if result.acceptance.accepted else "not accepted"
        reasons = "; ".join(result.acceptance.reasons)
        console.print(f"[bold]{verdict}[/] ({shown(result.acceptance.verified_by)}): {shown(reasons)}\n")
    console.print(shown_body(result.text) or "[dim](empty)[/]", highlight=False)
    for finding in result.removed:
        console.print(f"[dim]removed before delivery: {shown(finding.sentence)} — {shown(finding.reason)}[/]")
    if result.evidence and result.citations:
        console.print("\n[bold]Sources[/]")
        cited = {c.evidence_id for c in result.citations}
        for e in result.evidence:
            if e.evidence_id in cited:
                where = f"{e.doc_id}@{e.version}:{e.section_id}"
                origin = f"  {unquote(e.origin_url)}" if e.origin_url else ""
                console.print(
                    f"  [{e.evidence_id}] {shown(e.title)} {shown(e.heading)}  [dim]{where}{shown(origin)}[/]",
                    highlight=False,
                )
    for note in result.version_notes:
        console.print(f"[yellow]note:[/] {shown(note.render())}", highlight=False)
    p = result.provenance
    how = _LABELS[result.outcome.value]
    if p.model:
        how += f" · model {p.model} · prompt {p.prompt_version}"
    if p.fallback_reason:
        how += f" · {p.fallback_reason}"
    if p.readings:
        how += " · read " + "; ".join(r.render() for r in p.readings)
    if result.shadow:
        how += f" · shadow: new path would give {_LABELS[result.shadow.new_outcome.value]}"
    console.print(f"\n[dim]outcome: {shown(how)}\nrun: {result.run_id}[/]", highlight=False)
