"""tools/scienceworld_facts.py's reading of the draws from rooms rows (`read --rooms`), on trees in
the shape ScienceWorld's object tree has (names, contents, a living thing's kind and referents)."""

import pytest
import scienceworld_facts as facts  # tools/, on the path from tests/conftest.py


def _pot(name, plant_refs):
    return {"name": name, "contents": [{"name": "plant", "life": "apple", "referents": plant_refs}, {"name": "soil"}]}


def _row(task, v, rooms):
    return {"task": task, "variation": v, "tree": {"name": "universe", "contents": rooms}}


def test_a_vessel_is_a_portable_container_of_ours_not_the_furniture_around_it():
    vessels = {"glass cup", "tin cup"}
    fridge = {"name": "kitchen", "contents": [{"name": "fridge", "contents": [
        {"name": "tin cup", "contents": [{"name": "apple juice"}]}]}, {"name": "chocolate"}]}
    row = _row("boil", 0, [fridge])
    assert facts._vessel(row, "apple juice", vessels) == "tin cup"
    assert facts._vessel(row, "chocolate", vessels) is None


def test_the_greenhouse_pots_and_the_seeds_traits_come_from_their_names():
    seed = {"name": "pea", "life": "pea",
            "referents": ["pea seed", "round green pea seed", "seed round green pea seed"]}
    other = {"name": "pea", "life": "pea", "referents": ["pea seed", "wrinkly green pea seed"]}
    house = {"name": "greenhouse", "contents": [{"name": "flower pot 8"}, {"name": "flower pot 3"},
                                                {"name": "seed jar", "contents": [seed, other]}]}
    assert facts._genetics_draws(_row("mendelian-genetics-known-plant", 0, [house]), "pea") == (
        [3, 8], [["round", "green"], ["wrinkly", "green"]])


def test_the_life_stage_pots_give_number_stage_and_self_watering():
    outside = {"name": "outside", "contents": [
        _pot("self watering flower pot 9", ["apple tree in the reproducing stage", "plant in the reproducing stage"]),
        _pot("flower pot 4", ["apple seed in the seed stage"])]}
    assert facts._stage_pots(_row("identify-life-stages-2", 0, [outside])) == [[4, "seed", False],
                                                                              [9, "reproducing", True]]


def test_a_task_read_for_only_some_variations_stops_with_the_command_that_finishes_it():
    with pytest.raises(SystemExit, match=r"boil: rooms rows lack variations; run `read --rooms --task boil`"):
        facts.drawn([_row("boil", 0, [])], {}, {t: 2 for t in (*facts.VESSEL_TASKS, *facts.GENETICS,
                                                                facts.STAGE_POTS)})
