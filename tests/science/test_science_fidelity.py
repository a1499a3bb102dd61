"""Where racbench's lab must behave as ScienceWorld does: split sizes, terminals, what a find task
accepts, how many ticks heating, growth and power take."""

import importlib.util
from pathlib import Path

from racbench.worlds.science import TASKS, ScienceEnv, gold_trajectory, variation_split
from racbench.worlds.science.house import furniture
from racbench.worlds.science.tasks.base import split_counts

# ScienceWorld's (train, dev, test) variation counts, as its get_variations_train/dev/test list them
SCIENCEWORLD_SPLITS = {
    "boil": (14, 7, 9), "melt": (14, 7, 9), "freeze": (14, 7, 9),
    "change-the-state-of-matter-of": (14, 7, 9), "use-thermometer": (270, 135, 135),
    "measure-melting-point-known-substance": (218, 109, 109),
    "measure-melting-point-unknown-substance": (150, 75, 75), "power-component": (10, 5, 5),
    "power-component-renewable-vs-nonrenewable-energy": (10, 5, 5), "test-conductivity": (450, 225, 225),
    "test-conductivity-of-unknown-substances": (300, 150, 150), "find-living-thing": (150, 75, 75),
    "find-non-living-thing": (150, 75, 75), "find-plant": (150, 75, 75), "find-animal": (150, 75, 75),
    "chemistry-mix": (16, 8, 8), "chemistry-mix-paint-secondary-color": (18, 9, 9),
    "chemistry-mix-paint-tertiary-color": (18, 9, 9), "grow-plant": (62, 31, 33), "grow-fruit": (62, 31, 33),
    "identify-life-stages-1": (6, 3, 5), "identify-life-stages-2": (4, 2, 4),
    "inclined-plane-determine-angle": (84, 42, 42), "inclined-plane-friction-named-surfaces": (692, 346, 348),
    "inclined-plane-friction-unnamed-surfaces": (80, 40, 42), "lifespan-longest-lived": (62, 31, 32),
    "lifespan-shortest-lived": (62, 31, 32), "lifespan-longest-lived-then-shortest-lived": (62, 31, 32),
    "mendelian-genetics-known-plant": (60, 30, 30), "mendelian-genetics-unknown-plant": (240, 120, 120),
}


def test_every_task_splits_its_variations_as_scienceworld_does():
    assert sorted(TASKS) == sorted(SCIENCEWORLD_SPLITS)
    for name, spec in TASKS.items():
        train, dev, test = SCIENCEWORLD_SPLITS[name]
        assert split_counts(name) == (train, dev, test) and train + dev + test == spec.n_variations, name
        splits = [variation_split(name, v) for v in range(spec.n_variations)]
        assert splits == ["train"] * train + ["validation"] * dev + ["test"] * test, name


def test_connecting_a_polarized_thing_without_its_terminal_asks_which():
    env = ScienceEnv("power-component", 0, "easy")
    env.reset()
    env.step("teleport to workshop")
    wire = env.episode.hints["wires"][0]
    asked, *_ = env.step(f"connect battery to {wire.name}")
    assert "battery anode" in asked and "battery cathode" in asked and not env.world.links
    pick = next(line.split(":")[0] for line in asked.splitlines() if "battery cathode" in line)
    obs, *_ = env.step(pick)
    battery = env.episode.hints["battery"]
    assert "battery cathode" in obs and (battery.uid, 1) in env.world.links
    assert (battery.uid, 0) not in env.world.links


def test_an_unpolarized_thing_named_alone_connects_by_a_free_terminal():
    env = ScienceEnv("power-component", 0, "easy")
    env.reset()
    env.step("teleport to workshop")
    a, b = env.episode.hints["wires"][:2]
    obs, *_ = env.step(f"connect {a.name} to {b.name}")
    assert "connected" in obs and (a.uid, 0) in env.world.links and (b.uid, 0) in env.world.links


def test_find_non_living_thing_passes_over_a_fixed_appliance_and_fails_on_a_living_thing():
    """As ScienceWorld plays it: a focus on the stove (which cannot be carried) or on a second
    thing earns nothing and ends nothing; a focus on a living thing fails."""
    env = ScienceEnv("find-non-living-thing", 0, "teleport")
    env.reset()
    env.step("teleport to kitchen")
    obs, _, terminated, _, info = env.step("focus on stove")
    assert not terminated and info["scienceworld_score"] == 17 and env.episode.memory.get("chosen") is None
    env.step("focus on chair")
    env.step("focus on table")
    assert env.episode.memory["chosen"].base == "chair" and not env.finished
    env.step("teleport to outside")
    _, _, terminated, _, info = env.step("focus on dove egg")
    assert terminated and info["scienceworld_score"] == -100


def test_furniture_scienceworld_lets_the_agent_carry_can_be_picked_up_and_boxed():
    """Tables, chairs, cupboards, beds, the ground... move as in ScienceWorld; its stoves, ovens,
    fridges, freezers, furnace, sinks, bathtubs and toilets do not."""
    env = ScienceEnv("find-non-living-thing", 0, "teleport")
    env.reset()
    env.step("teleport to kitchen")
    table = furniture(env.world, "kitchen", "table")
    assert env.step("focus on table")[4]["scienceworld_score"] == 67
    obs, *_ = env.step("pick up table")
    assert "inventory" in obs and table.parent is env.world.agent and table.contents   # its glass cup comes too
    assert "pick up chair" in env.valid_actions()
    _, _, terminated, _, info = env.step("move table to red box")
    assert terminated and info["scienceworld_score"] == 100
    for room, things in {"kitchen": ("stove", "oven", "fridge", "freezer", "sink"),
                         "bathroom": ("bathtub", "toilet", "sink"), "foundry": ("blast furnace",),
                         "workshop": ("ultra low temperature freezer",)}.items():
        env = ScienceEnv("find-animal", 0, "teleport")
        env.reset()
        env.step(f"teleport to {room}")
        for name in things:
            obs, *_ = env.step(f"pick up {name}")
            assert "cannot be moved" in obs, (room, name, obs)
    env = ScienceEnv("find-animal", 0, "teleport")
    env.reset()
    for room, name in (("kitchen", "counter"), ("kitchen", "cupboard"), ("bedroom", "bed"), ("bedroom", "closet"),
                       ("living room", "couch"), ("greenhouse", "bee hive"), ("outside", "fire pit"),
                       ("outside", "fountain"), ("outside", "ground"), ("art studio", "large cupboard")):
        env.step(f"teleport to {room}")
        obs, *_ = env.step(f"pick up {name}")
        assert "inventory" in obs, (room, name, obs)
        env.step(f"put down {name}")


def test_the_kitchen_salt_jar_starts_closed_and_shows_what_it_holds():
    """ScienceWorld's glass jar starts closed; its look still lists the salt, out of reach."""
    env = ScienceEnv("chemistry-mix", 0, "teleport")
    env.reset()
    env.step("teleport to kitchen")
    assert "a glass jar (containing a sodium chloride)" in env.look()
    obs, *_ = env.step("pick up sodium chloride")
    assert "no \"sodium chloride\"" in obs
    assert env.step("open glass jar")[0] == "The glass jar is now open."
    obs, *_ = env.step("pick up sodium chloride")
    assert "inventory" in obs


def test_a_closed_drawer_on_a_counter_is_only_named_in_the_rooms_look():
    """As in ScienceWorld's look: 'a drawer' among what lies on the counter; looked at, it is closed;
    opened, its contents show."""
    env = ScienceEnv("boil", 0, "teleport")
    env.reset()
    env.step("teleport to kitchen")
    counter = next(line for line in env.look().splitlines() if "a counter" in line)
    assert counter.endswith(", a drawer.") and "closed" not in counter, counter
    assert env.step("look at drawer in counter")[0] == "A drawer. The drawer is closed."
    env.step("open drawer in counter")
    assert "a drawer (containing nothing)" in env.look()


def test_find_non_living_thing_accepts_a_thing_it_can_carry():
    env = ScienceEnv("find-non-living-thing", 0, "easy")
    env.reset()
    env.step("teleport to kitchen")
    table = furniture(env.world, "kitchen", "table")
    thing = next(t for t in env.world.subtree(env.world.rooms["kitchen"])
                 if t.portable and t.living is None and not t.is_substance and t is not table)
    if thing.parent.openable and not thing.parent.is_open:
        env.step(f"open {env.canon(thing.parent)}")
    obs, _, terminated, _, info = env.step(f"focus on {env.canon(thing)}")
    assert not terminated and env.episode.memory["chosen"] is thing and info["score"] > 0


def test_qualified_references_name_a_thing_by_where_it_is():
    env = ScienceEnv("use-thermometer", 0, "teleport")
    env.reset()
    thermometer = env.episode.hints["thermometer"]
    env.step(f"teleport to {env.world.room_of(thermometer).name}")
    where = thermometer.parent
    if where.openable and not where.is_open:
        env.step(f"open {env.canon(where)}")
    obs, *_ = env.step(f"pick up thermometer in {where.name}")
    assert thermometer.parent is env.world.agent, obs
    obs, *_ = env.step("look at thermometer in inventory")
    assert obs.startswith("A thermometer"), obs
    room = env.world.agent_room()
    fixed = next(t for t in room.contents if t.kind == "thing" and not t.portable)
    obs, *_ = env.step(f"use thermometer in inventory on {fixed.name} in {room.name}")
    assert "degrees" in obs, obs


def test_scores_on_scienceworlds_scale_run_from_0_to_100_and_failure_is_minus_100():
    from racbench.worlds.science import gold_trajectory
    env = ScienceEnv("lifespan-longest-lived-then-shortest-lived", 0, "teleport")
    _, info = env.reset()
    assert info["scienceworld_score"] == 0
    env.step("teleport to outside")
    _, _, _, _, info = env.step("focus on brown bear")
    assert 0 < info["scienceworld_score"] < 100 and info["scienceworld_score"] == round(100 * info["score"])
    _, _, terminated, _, info = env.step("focus on mouse")
    assert terminated and info["scienceworld_score"] == 100
    env = ScienceEnv("lifespan-longest-lived", 0, "teleport")
    env.reset()
    env.step("teleport to outside")
    _, _, terminated, _, info = env.step("focus on wolf")
    assert terminated and info["scienceworld_score"] == -100 and info["score"] == 0.0
    assert gold_trajectory("boil", 0)[-1]["score"] == 1.0


def test_our_table_of_scienceworlds_draws_drives_the_world():
    """Each variation's vessel, greenhouse pots, seeds and life-stage pots are the ones our table
    (variations.json, read from ScienceWorld) draws for it, as a look shows them: a world that
    ignored the table would put tin in the same vessel in boil 22 and 23, and number its pots 1-6."""
    from drawn_looks import DRAWN, SIMPLIFICATIONS, expected, look_in, room, seen

    checked = 0
    for table, tasks in DRAWN.items():
        for task in tasks:
            for v in range(0, TASKS[task].n_variations, 1 if TASKS[task].n_variations <= 30 else 7):
                where = room(table, task, v)
                if where is None:
                    continue
                env = ScienceEnv(task, v, SIMPLIFICATIONS)
                env.reset()
                look = look_in(lambda a: env.step(a)[0], where)
                assert seen(table, task, v, look) == expected(table, task, v), (table, task, v, look)
                checked += 1
    assert checked > 300


def test_staying_outside_is_credited_when_scienceworld_credits_it():
    """identify-life-stages' 'stay outside 10/20/30 steps' come 4, 8 and 13 of ScienceWorld's
    steps after the arrival, where a wait of N ticks counts N + 1 (as played there)."""
    def credits(actions):
        env = ScienceEnv("identify-life-stages-1", 0, "teleport")
        env.reset()
        scores = [env.step(a)[4]["scienceworld_score"] for a in ["teleport to outside", *actions]]
        return [i for i in range(1, len(scores)) if scores[i] > scores[i - 1]]

    assert credits(["look around"] * 14) == [4, 8, 13]
    assert credits(["wait1"] * 8) == [2, 4, 7]
    assert credits(["wait"] * 3) == [1, 2]
    assert credits(["look at ground", "wait1", "look at ground"] * 4) == [3, 6, 10]


def test_bees_are_adult_bees_that_fly_out_of_what_holds_them():
    """ScienceWorld's hive holds adult bees (answering to 'bee'); once it is open they fly out to
    the room, and a bee picked up leaves the inventory a tick later, so the find tasks' gold
    paths (there and here) fetch another animal."""
    env = ScienceEnv("find-animal", 0, "teleport")
    env.reset()
    env.step("teleport to greenhouse")
    hive = furniture(env.world, "greenhouse", "bee hive")
    env.step("open bee hive")
    assert "a bee hive (containing an adult bee, an adult bee" in env.look()
    env.step("wait1")
    assert not hive.contents and env.look().count("\tan adult bee\n") == 5
    obs, *_ = env.step("pick up bee")
    env.step("0")
    assert any(t.base == "adult bee" for t in env.world.agent.contents)
    env.step("wait1")
    assert not any(t.base == "adult bee" for t in env.world.agent.contents)
    env.step("close bee hive")
    assert env.look().count("\tan adult bee\n") == 5      # they stay out once the hive is shut
    gold = [s["action"] for s in gold_trajectory("find-animal", 0)]
    assert not any("bee" in a for a in gold), gold


def _timing():
    """benchmarks/science_timing.py: its probes play fixed action sequences through the lab."""
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "science_timing.py"
    spec = importlib.util.spec_from_file_location("science_timing", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# actions until the change shows, counted in ScienceWorld 1.2.3 with the probes' sequences
SCIENCEWORLD_ACTIONS = {"boil-on-stove": 20, "freeze-in-freezer": 20,
                        "seed-to-seedling": 9, "seed-to-adult": 19, "seed-to-reproducing": 24,
                        "egg-to-hatchling": 8, "hatchling-to-juvenile": 18, "egg-to-hatchling-teleported": 10,
                        "bulb-lights-after-wiring": 1, "tree-seed-to-seedling": 3, "tree-adult-to-reproducing": 1,
                        "tree-seedling-to-reproducing": 6, "tree-seed-to-reproducing": 11,
                        "boil-in-oven": 10, "fridge-cools-water-to-5": 33, "freeze-in-ultra-low-freezer": 7}
# where our model comes near, (ScienceWorld's count, how far off): ice out of the freezer is colder
# here, so it takes longer to melt on the stove; ScienceWorld's own furnace count is 5 or 6 from run
# to run
NEAR = {"ice-melts-on-counter": (30, 1), "ice-melts-on-stove": (3, 3), "caesium-boils-in-blast-furnace": (6, 1)}


def test_the_lab_keeps_scienceworlds_clock():
    timing = _timing()
    for name, n in SCIENCEWORLD_ACTIONS.items():
        assert timing.PROBES[name][-1] == n and timing.ours(timing.PROBES[name]) == n, name
    for name, (n, off) in NEAR.items():
        got = timing.ours(timing.PROBES[name])
        assert timing.PROBES[name][-1] == n and abs(got - n) <= off, (name, got, n)


def test_water_on_the_stove_boils_on_scienceworlds_tick_and_looking_around_takes_no_time():
    env = ScienceEnv("boil", 0, "teleportAction,openContainers")
    env.reset()
    for a in ("teleport to kitchen", "pick up thermometer", "pick up metal pot", "move metal pot to sink",
              "activate sink", "deactivate sink", "pick up metal pot", "focus on water",
              "move metal pot to stove", "activate stove"):
        env.step(a)
    env.step("use thermometer on water")
    for _ in range(10):             # were these ticks, the water would boil among them
        env.step("look around")
        env.step("inventory")
    readings, done = 1, False
    while not done:
        obs, _, done, _, info = env.step("use thermometer on water")
        readings += 1
        assert readings <= 20, obs
    assert readings == 20 and info["scienceworld_score"] == 100


def test_potted_trees_are_called_by_their_stage_as_scienceworlds_are():
    """ScienceWorld's greenhouse holds 'a banana tree in the adult stage' (its parser knows no
    'adult banana plant'); the pea plant stays 'adult pea plant', a name it accepts."""
    env = ScienceEnv("find-living-thing", 100, "teleport")
    env.reset()
    obs, *_ = env.step("teleport to greenhouse")
    obs, *_ = env.step("look around")
    assert "a flower pot 2 (containing a banana tree in the adult stage" in obs
    gold = [s["action"] for s in gold_trajectory("find-living-thing", 100)]
    assert "focus on banana tree in the adult stage" in gold
    obs, *_ = env.step("focus on adult banana tree")
    assert "banana tree in the adult stage" in obs
    assert "focus on adult pea plant" in [s["action"] for s in gold_trajectory("find-living-thing", 0)]


def _scores(task: str, variation: int, commands: list[str]) -> list[int]:
    env = ScienceEnv(task, variation)
    env.reset()
    out = []
    for c in commands:
        _, _, ran = env.act(c)
        assert ran, c
        out.append(env.episode.scienceworld_score)
    return out


def test_a_heater_room_is_credited_once_the_substance_room_was_reached():
    """ScienceWorld's scores for these very commands (measure-melting-point-known-substance 218,
    which starts in the foundry): going outside first earns only the move; once the kitchen (the
    mercury's room) was reached, going outside earns its heater room."""
    commands = ["open door to outside", "go to outside", "open door to kitchen", "go to kitchen",
                "pick up thermometer", "go to outside", "go to kitchen", "focus on thermometer"]
    assert _scores("measure-melting-point-known-substance", 218, commands) == [0, 1, 1, 6, 7, 8, 8, 41]


def test_a_reading_after_heating_is_credited_only_after_the_rise_was():
    """As ScienceWorld's gold path of measure-melting-point-known-substance 0 shows: the reading
    'after it has been heated' counts at a reading after the step the 20-degree rise was credited."""
    env = ScienceEnv("measure-melting-point-known-substance", 0)
    env.reset()
    for c in ["open door to kitchen", "go to kitchen", "pick up thermometer", "focus on thermometer",
              "open fridge", "focus on chocolate", "open cupboard", "move chocolate to metal pot",
              "move metal pot to stove", "activate stove"]:
        env.act(c)
    ep = env.episode
    after, rise = 10, len(ep.optional) - 1     # the reading after heating, the rise
    assert ep.optional[after].__qualname__.startswith("used_on")
    rose_at = read_at = None
    for step in range(60):
        env.act("use thermometer on chocolate")
        if rose_at is None and ep.opt_done[rise]:
            rose_at = step
            assert not ep.opt_done[after]
        if read_at is None and ep.opt_done[after]:
            read_at = step
    assert rose_at is not None and read_at == rose_at + 1


def test_the_object_to_test_for_conductivity_lies_in_view_as_scienceworlds_does():
    """ScienceWorld's test-conductivity 112 starts in the kitchen beside the apricot, on the
    floor, and its gold path picks it up at once; so does ours."""
    env = ScienceEnv("test-conductivity", 112)
    env.reset()
    apricot = next(t for t in env.world.things if t.name == "apricot")
    assert apricot.parent is env.world.agent_room()
    _, _, ran = env.act("pick up apricot")
    assert ran and apricot.parent is env.world.agent


def test_water_alone_in_the_fountain_is_alone_in_a_container():
    """ScienceWorld's freeze 3 starts outside; at its first step the fountain has filled and it
    credits both being by water and water alone in a container: 10 points. So do we."""
    assert _scores("freeze", 3, ["open door to kitchen"]) == [10]


def test_a_material_to_test_for_conductivity_is_any_portion_of_it():
    """ScienceWorld's gold path of test-conductivity 750 ('is water conductive?') fills a cup at
    the bathroom sink and focuses on that water: the task's object, as here; its scores for these
    steps are 5 (by water) and 55."""
    assert _scores("test-conductivity", 750, ["move cup to sink", "activate sink", "deactivate sink",
                                              "pick up cup", "focus on water in glass cup"]) == [5, 5, 5, 5, 55]


def test_a_terminal_is_named_after_its_things_own_name_first():
    """ScienceWorld's test-conductivity 825 tests a wood block: its gold path's 'connect block
    terminal 1 to ...' is no action there ('block' names the block, but a terminal put first is
    named by the thing's own name), while 'wood block terminal 1' and 'terminal 1 on block' are;
    so here."""
    env = ScienceEnv("test-conductivity", 825)
    env.reset()
    for c in ["open door to bedroom", "go to bedroom", "open door to hallway", "go to hallway",
              "open door to workshop", "go to workshop"]:
        env.act(c)
    block = next(t for t in env.world.things if t.name == "wood block")
    assert env.act("connect block terminal 1 to green wire terminal 2")[2] is False
    assert env.act("connect wood block terminal 1 to green wire terminal 2")[2] is True
    assert env.act("connect terminal 2 on block to black wire terminal 1")[2] is True
    assert {(block.uid, 0), (block.uid, 1)} <= set(env.world.links)


def test_water_to_test_for_conductivity_comes_from_a_tap():
    """ScienceWorld sets out no water for test-conductivity's water variations (750-824), in
    the room its description names or anywhere: its gold path of 750 fills the bathroom's cup
    at the sink, focuses on that water, wires it by 'water terminal 1' and boxes the cup, with
    these scores step by step; so here, and our oracle fills the kitchen's cup."""
    env = ScienceEnv("test-conductivity", 750)
    env.reset()
    assert not [t for t in env.world.things if t.parent is not None and t.is_substance
                and t.mat.name == "water" and env.world.room_of(t).name == "workshop"]
    assert _scores("test-conductivity", 750, [
        "move cup to sink", "activate sink", "deactivate sink", "pick up cup", "focus on substance in cup",
        "open door to kitchen", "go to kitchen", "open door to hallway", "go to hallway",
        "open door to workshop", "go to workshop", "drop cup", "look around",
        "connect battery anode to red wire terminal 1", "connect battery cathode to blue wire terminal 1",
        "connect red wire terminal 2 to cathode in red light bulb",
        "connect orange wire terminal 2 to anode in red light bulb",
        "connect water terminal 1 to blue wire terminal 2", "connect water terminal 2 to orange wire terminal 1",
        "wait1", "wait1", "look around", "move cup to green box"]) == [
        5, 5, 5, 5, 55, 55, 60, 60, 60, 60, 60, 60, 60, 60, 60, 64, 64, 74, 83, 83, 83, 83, 100]
    assert gold_trajectory("test-conductivity", 775, "")[-1]["score"] == 1.0


def test_the_object_to_test_is_any_thing_of_its_name_set_out_in_reach():
    """ScienceWorld's test-conductivity 642 ('the shovel is located around the kitchen') sets a
    shovel out in the kitchen, but its gold path tests the greenhouse's own: any shovel is the
    task's object, and being by one counts. Its 712 sets a portion of sodium chloride out on
    the kitchen floor beside the closed jar of salt, and its gold path takes that one. Their
    scores step by step, here as there."""
    assert _scores("test-conductivity", 642, [
        "open door to bedroom", "go to bedroom", "open door to hallway", "go to hallway",
        "open door to living room", "go to living room", "open door to hallway", "go to hallway",
        "open door to art studio", "go to art studio", "open door to hallway", "go to hallway",
        "open door to workshop", "go to workshop", "open door to hallway", "go to hallway",
        "open door to greenhouse", "go to greenhouse", "pick up shovel", "focus on shovel"]) == [
        0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 60]
    assert _scores("test-conductivity", 712, [
        "pick up sodium chloride in kitchen", "focus on sodium chloride in inventory", "open door to hallway",
        "go to hallway", "open door to workshop", "go to workshop", "drop sodium chloride", "look around",
        "connect battery anode to blue wire terminal 1", "connect battery cathode to yellow wire terminal 1",
        "connect blue wire terminal 2 to blue light bulb cathode",
        "connect green wire terminal 2 to anode in blue light bulb",
        "connect sodium chloride terminal 1 to yellow wire terminal 2",
        "connect sodium chloride terminal 2 to green wire terminal 1", "wait1", "wait1", "look around",
        "move sodium chloride to orange box"]) == [
        5, 55, 55, 60, 60, 60, 60, 60, 60, 60, 64, 64, 74, 83, 83, 83, 83, 100]
