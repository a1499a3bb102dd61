"""How fast the audit's bag-of-words probe runs on one large true/false config.

Writes a synthetic config of random texts (a vocabulary of 3,000 words, 25 words a row,
random labels) with a train split and a test split, probes it as `racbench audit` does,
and prints the time and rows/s. The probe once had a 2-second budget for 10,000 train
and 3,000 test rows; it is measured here rather than asserted in a timed test.

    python benchmarks/audit_probe.py [--train 10000] [--test 3000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from racbench.checks.audit import probe_config


def write_config(folder: Path, sizes: dict[str, int], seed: int = 8) -> None:
    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(3000)])
    folder.mkdir(parents=True)
    for split, n in sizes.items():
        texts = [" ".join(row) for row in vocab[rng.integers(0, len(vocab), (n, 25))].tolist()]
        table = pa.table({"question": texts, "context": texts,
                          "label": pa.array(rng.integers(0, 2, n), pa.int64())})
        pq.write_table(table, folder / f"{split}-00000-of-00001.parquet")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=10_000)
    parser.add_argument("--test", type=int, default=3_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "big"
        write_config(folder, {"train": args.train, "test": args.test})
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = probe_config(folder)
            times.append(time.perf_counter() - start)
    rows = args.train + args.test
    print(f"probe of {args.train} train + {args.test} test rows: best {min(times):.2f} s, "
          f"{rows / min(times):,.0f} rows/s (accuracy {result.accuracy:.3f}, at chance)")


if __name__ == "__main__":
    main()
