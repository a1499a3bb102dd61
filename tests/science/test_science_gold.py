"""Gold rows match the declared schema."""

import datasets

from racbench.tasks.gold_trajectories import FEATURES, gold_items, gold_row
from racbench.worlds.science import TASKS


def test_gold_items_are_sorted_and_complete():
    items = gold_items(["melt", "boil"], ("", "easy"))
    assert items == sorted(items) and len(items) == 2 * 2 * 30
    assert len(gold_items()) == sum(spec.n_variations for spec in TASKS.values())


def test_gold_rows_fit_the_features():
    rows = [gold_row("boil", 3, "", with_valid_actions=True), gold_row("find-plant", 299, "easy")]
    ds = datasets.Dataset.from_list(rows, features=FEATURES)
    assert ds.features == FEATURES
    assert rows[0]["final_score"] == 1.0 and rows[0]["n_steps"] == len(rows[0]["steps"])
    assert rows[0]["steps"][0]["valid_actions"] and rows[1]["steps"][0]["valid_actions"] == []
    assert rows[1]["split"] == "test" and rows[0]["id"] == "boil/3/none"



def test_the_oracle_plays_the_same_steps_without_listing_valid_actions(monkeypatch):
    """Configs that keep no valid actions (rc-, science-gold) skip listing them at each
    step (twice as fast): the steps are the same, and nothing lists them."""
    from racbench.worlds.science.env import ScienceEnv
    from racbench.worlds.science.trajectory import run_oracle

    for task, variation in (("boil", 3), ("power-component", 0), ("find-plant", 299)):
        env = ScienceEnv(task, variation, "easy")
        env.reset()
        full = run_oracle(env, with_valid_actions=True)
        env = ScienceEnv(task, variation, "easy")
        env.reset()
        listed = []
        monkeypatch.setattr(env, "valid_actions", lambda: listed.append(1) or [])
        bare = run_oracle(env)
        assert bare == [{k: s[k] for k in ("action", "observation", "score")} for s in full]
        assert not listed
