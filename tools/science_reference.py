"""Write racbench/data/science/splits.json from ScienceWorld itself, the reference the lab follows.

    pip install scienceworld        # Java 17 needed; never a dependency of racbench
    python tools/science_reference.py

ScienceWorld lists each task's train, dev and test variations as three contiguous ranges; the
lab keeps only their sizes, so variation k lands in the split it has there.
"""

from __future__ import annotations

import json
from pathlib import Path

SPLITS = Path(__file__).resolve().parents[1] / "racbench" / "data" / "science" / "splits.json"
DOC = ("ScienceWorld's train / dev / test variation counts per task (its variation lists are "
       "contiguous: train first, then dev, then test), read from the reference with "
       "tools/science_reference.py.")


def reference_splits() -> dict[str, list[int]]:
    from scienceworld import ScienceWorldEnv

    env = ScienceWorldEnv("", envStepLimit=100)
    try:
        out = {}
        for task in sorted(env.get_task_names()):
            env.load(task, 0, "")
            lists = (env.get_variations_train(), env.get_variations_dev(), env.get_variations_test())
            flat = [v for part in lists for v in part]
            assert flat == list(range(env.get_max_variations(task))), task
            out[task] = [len(part) for part in lists]
        return out
    finally:
        env.close()


def main() -> None:
    rows = [f'  "_doc": {json.dumps(DOC)}'] + [f"  {json.dumps(t)}: {json.dumps(c)}"
                                               for t, c in reference_splits().items()]
    SPLITS.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    main()
