"""Batch research: one research run per line of a question file, on many worker processes.

:mod:`~citewise.batch.questions` reads the file (a bad line fails alone), :mod:`citewise.store.batches`
records the batch and lets workers claim lines, :mod:`~citewise.batch.limits` shares provider rate
limits and the batch's money cap between workers, :mod:`~citewise.batch.worker` researches claimed
lines (resuming a dead worker's run from its audit record), and :mod:`~citewise.batch.runner` starts
the workers, shows progress and sums the batch up.
"""
