"""How fast facts are phrased once their templates are warm (the cached clause path).

Phrases the 200 `at` facts of a logistics-like world over and over through DomainText
and prints clauses/s; rows render hundreds of facts each, so this path must stay cheap
(it once had a budget of 100,000 clauses/s).

    python benchmarks/text_rendering.py [--clauses 200000]
"""

from __future__ import annotations

import argparse
import time

from racbench.text.domain import DomainText, template_dir_for
from racbench.worlds.strips.shipped import shipped_files
from racbench.worlds.strips.world import domain_text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clauses", type=int, default=200_000)
    args = parser.parse_args()
    domain = domain_text(shipped_files("logistics", [])[0])[1]
    text = DomainText(domain, template_dir_for("logistics"))
    atoms = [("at", f"p{i}", f"l{j}") for i in range(20) for j in range(10)]
    start = time.perf_counter()
    for atom in atoms:
        text.fact(atom)
    cold = time.perf_counter() - start
    start, n = time.perf_counter(), 0
    while n < args.clauses:
        for atom in atoms:
            text.fact(atom)
        n += len(atoms)
    warm = n / (time.perf_counter() - start)
    print(f"first {len(atoms)} clauses: {cold * 1000:.1f} ms; warm: {warm:,.0f} clauses/s")


if __name__ == "__main__":
    main()
