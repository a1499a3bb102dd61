"""configs.json beside the card: each config's long detail, which the card's YAML leaves out.

Per config: description, row kind, knobs, and per split (in the recipe's order) its
size, shards, label, kind (form or simplification setting) and length counts; redrawn duplicates,
questions dropped for search budget, and left-out surface forms. Keys are sorted and lists keep the build's order, so the bytes depend on
the recipe and seed only. `datasets` never reads it: the card's `configs:` names every
config's data files.
"""

from __future__ import annotations

import json

from racbench.version import __version__

CONFIGS_FILE = "configs.json"


def render_details(recipe, seed: int, scale: float, stats, cross_config_leaks: int,
                   sizes: dict) -> str:
    doc = {
        "recipe": recipe.name, "seed": seed, "scale": scale, "generator_version": __version__,
        "cross_config_leaks": cross_config_leaks,
        "configs": [{
            "name": s.name, "description": s.description, "rows": s.row_kind,
            "task": s.task, "objects": s.objects, "lengths": s.lengths,
            "query_kinds": s.query_kinds, "world": s.world, "names": s.names,
            "splits": [{
                "name": split, "num_examples": sizes[s.name][split][0],
                "num_bytes": sizes[s.name][split][1], "files": st.files, "labels": st.labels,
                "kinds": st.kinds, "lengths": st.lengths,
            } for split, st in s.splits.items()],
            "redrawn_duplicates": s.redrawn_duplicates, "excluded_forms": s.excluded_forms,
            "dropped_for_budget": s.dropped_for_budget,
        } for s in stats],
    }
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
