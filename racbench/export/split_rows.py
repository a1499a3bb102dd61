"""The rows of a split in order, a row repeating an earlier problem of its config redrawn.

A row depends only on (seed, config, split, index, attempt), and a row whose problem
repeats one seen before it (earlier splits of the config, in train, validation, test
order, then earlier rows of its split) is drawn again with the next attempt number; so
the rows do not depend on who made them. A build's worker runs it over one shard,
told the problems of the shards before it (jobs.write_shard; a local build's worker
is not, and its driver checks: local_shards.py); racbench.api over a whole split.
"""

from __future__ import annotations

from typing import Iterator, Sequence

from racbench.errors import GenerationError
from racbench.splits.strata import position_codes
from racbench.text import sayer

CHUNK = 500
MIN_CHUNK = 8
MAX_REDRAWS = 64
_say = sayer("cli", ("generation.j2",))


def chunk_size(n: int, workers: int) -> int:
    # small splits of slow rows (science trajectories) still spread over all workers
    return max(MIN_CHUNK, min(CHUNK, -(-n // (4 * workers))))


def made_rows(gen, split: str, start: int, codes) -> list:
    """Rows `start`.. of a split (`codes` are theirs), first attempts: made together
    where the row maker can (`row_batch`: a task config's, stage by stage), else one by
    one; the same rows either way."""
    batch = getattr(gen, "row_batch", None)
    if batch is not None:
        return batch(split, start, codes)
    return [gen.row(split, start + offset, code) for offset, code in enumerate(codes)]


class SplitRows:
    """The `n` rows of one split (or those from `start` on, `codes` then being theirs),
    made in order, and their problem keys. A row whose problem repeats one in `seen`
    (earlier splits and rows of the config, which it extends) is redrawn here with the
    next attempt number, so the rows do not depend on the number of workers; `redrawn`
    counts those draws, `dropped` the questions dropped for budget while drawing the rows
    kept and redrawn. Rows come from `chunks`, the split's chunk results in order (made
    by a pool's workers, which find `gen` in GENERATORS), or are made here."""

    def __init__(self, name: str, gen, split: str, n: int, seed: int, seen: dict,
                 chunks: Iterator | None = None, on_chunk=None, start: int = 0,
                 codes: Sequence[int] | None = None):
        self.name, self.gen, self.split, self.n, self.seed = name, gen, split, n, seed
        self.seen, self.chunks, self.on_chunk, self.start = seen, chunks, on_chunk, start
        self.codes = codes
        self.keys: list[str] = []
        self.redrawn = self.dropped = 0

    def batches(self, size: int) -> Iterator[list[dict]]:
        """The rows in lists of `size` (the last may be shorter): a split is never held
        whole in memory."""
        batch = []
        for columns in self:
            batch.append(columns)
            if len(batch) == size:
                yield batch
                batch = []
        if batch:
            yield batch

    def __iter__(self) -> Iterator[dict]:
        name, gen, split, start = self.name, self.gen, self.split, self.start
        codes = self.codes
        if codes is None:
            codes = position_codes(self.seed, name, split, self.n)[start:]
        chunks = self.chunks
        if chunks is None:
            size = chunk_size(len(codes), 1)
            chunks = ([(r.columns, r.key, r.dropped)
                       for r in made_rows(gen, split, start + s, codes[s:s + size])]
                      for s in range(0, len(codes), size))
        for chunk in chunks:
            for columns, key, dropped in chunk:
                index = start + len(self.keys)
                self.dropped += dropped
                attempt = 0
                while key in self.seen:
                    attempt += 1
                    self.redrawn += 1
                    if attempt > MAX_REDRAWS:
                        raise GenerationError(_say("too_few_problems", config=name,
                                                   split=split, wanted=self.n, made=index,
                                                   redraws=MAX_REDRAWS))
                    row = gen.row(split, index, codes[index - start], attempt)
                    columns, key = row.columns, row.key
                    self.dropped += row.dropped
                self.seen[key] = (split, index)
                self.keys.append(key)
                yield columns
            if self.on_chunk is not None:
                self.on_chunk(len(chunk))
