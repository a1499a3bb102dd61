"""Thermodynamics and electricity on small hand-built worlds."""

from racbench.worlds.science import electrical, thermo
from racbench.worlds.science.house import add_agent, make, make_substance
from racbench.worlds.science.world import World


def _kitchen(ambient=25.0):
    w = World()
    room = w.add_room("kitchen", ambient)
    outside = w.add_room("outside", -15.0)
    w.add_door(room, outside, True)
    add_agent(w, "kitchen")
    return w, room, outside


def _ticks(w, n):
    for _ in range(n):
        thermo.tick(w)
        electrical.update(w)
        w.ticks += 1


def test_a_lit_stove_heats_a_pot_and_its_water_by_scienceworlds_rules():
    """The figures ScienceWorld 1.2.3's object tree shows for tap water in a metal pot on its stove:
    the pot closes 0.1 of the gap to the stove's 260 degrees, then 0.05 (0.1 x the lesser
    conductivity) of its gap to the water; the water then 0.05 of its gap to the pot."""
    w, room, _ = _kitchen()
    stove = make(w, "stove")
    w.place(stove, room)
    pot = make(w, "metal pot", temp=10.0)
    w.place(pot, stove)
    water = make_substance(w, "water", 10.0)
    w.place(water, pot)
    stove.is_on = True
    w.touch(pot)
    _ticks(w, 1)
    assert abs(pot.temp - 33.75) < 1e-9 and abs(water.temp - 11.1875) < 1e-9
    _ticks(w, 40)
    assert water.state == "gas" and water.name == "steam"
    assert [(old, new) for _, uid, old, new in w.phase_log if uid == water.uid] == [("liquid", "gas")]
    stove.is_on = False   # a stove gives off no heat of its own, nor does a room's air take any
    w.touch(stove)
    _ticks(w, 600)
    assert abs(water.temp - pot.temp) < 1 and water.state == "gas"


def test_ice_stays_frozen_in_the_freezer_and_melts_in_warm_water():
    w, room, _ = _kitchen()
    freezer = make(w, "freezer")
    w.place(freezer, room)
    cup = make(w, "glass cup", temp=-10)
    w.place(cup, freezer)
    ice = make_substance(w, "water", -10.0)
    w.place(ice, cup)
    w.touch(cup)
    _ticks(w, 200)
    assert ice.name == "ice" and abs(ice.temp - -18) < 0.5     # the freezer's -18 degrees
    w.move(cup, room)
    _ticks(w, 300)
    assert ice.state == "solid"     # alone on a floor: nothing to warm it
    pot = make(w, "metal pot", temp=10.0)
    w.place(pot, room)
    w.place(make_substance(w, "water", 80.0), pot)
    w.move(cup, pot)
    _ticks(w, 100)
    assert ice.state == "liquid"


def test_things_on_one_floor_share_heat_and_settled_things_leave_the_active_set():
    w, room, _ = _kitchen()
    table = make(w, "table", temp=10.0)
    w.place(table, room)
    pot = make(w, "metal pot", temp=150.0)
    w.move(pot, room)
    _ticks(w, 1)
    assert table.temp > 10 + 0.05 * 100    # the table (wood) moved 0.05 of its gap toward the pot
    _ticks(w, 1000)
    assert abs(table.temp - pot.temp) < 0.1
    assert pot.uid not in w.thermal_active and table.uid not in w.thermal_active


def test_paper_in_a_fire_pit_burns_to_ash_and_spills_nothing_it_did_not_hold():
    w, room, _ = _kitchen()
    pit = make(w, "fire pit")
    w.place(pit, room)
    book = make(w, "book")
    w.place(book, pit)
    pit.is_on = True
    w.touch(book)
    _ticks(w, 20)
    assert book.burning and book.temp >= book.mat.combustion + thermo.FLAME_ABOVE
    _ticks(w, thermo.BURN_TICKS)
    assert book.name == "ash" and book.parent is pit


def _circuit(conductor_name="metal fork", polarity_ok=True, source="battery", room_name="kitchen"):
    w, room, outside = _kitchen()
    where = room if room_name == "kitchen" else outside
    bat = make(w, source)
    bulb = make(w, "light bulb", name="red light bulb", color="red")
    w1, w2 = make(w, "wire", name="red wire"), make(w, "wire", name="blue wire")
    fork = make(w, conductor_name)
    for t in (bat, bulb, w1, w2, fork):
        w.place(t, where)
    b_in, b_out = (1, 0) if polarity_ok else (0, 1)
    for a, b in (((bat.uid, 0), (w1.uid, 0)), ((w1.uid, 1), (fork.uid, 0)), ((fork.uid, 1), (bulb.uid, b_in)),
                 ((bulb.uid, b_out), (w2.uid, 0)), ((w2.uid, 1), (bat.uid, 1))):
        w.connect(a, b)
    electrical.update(w)
    return w, bulb, fork, room, outside


def test_series_circuit_lights_the_bulb_through_a_conductor_only():
    w, bulb, fork, room, _ = _circuit("metal fork")
    assert bulb.powered and bulb.is_on
    w.move(fork, room)      # moving a thing loosens its links
    electrical.update(w)
    assert not bulb.powered
    w, bulb, *_ = _circuit("plastic fork")
    assert not bulb.powered


def test_polarized_bulb_wired_backwards_stays_dark():
    _, bulb, *_ = _circuit(polarity_ok=False)
    assert not bulb.powered


def test_solar_panel_works_outside_only():
    _, bulb, *_ = _circuit(source="solar panel", room_name="kitchen")
    assert not bulb.powered
    w, bulb, *_ = _circuit(source="solar panel", room_name="outside")
    assert bulb.powered and w.power_source[bulb.uid].renewable


def test_switch_opens_and_closes_the_loop_through_actions():
    from racbench.worlds.science import ScienceEnv
    env = ScienceEnv("power-component", 0, "easy")
    env.reset()
    env.step("teleport to workshop")
    bat = next(t for t in env.world.things if t.source == "battery")
    comp = env.episode.hints["component"]
    wires = env.episode.hints["wires"]
    plan = [f"connect battery anode to {wires[0].name} terminal 1",
            f"connect {wires[0].name} terminal 2 to switch terminal 1",
            f"connect switch terminal 2 to {comp.name} cathode",
            f"connect {comp.name} anode to {wires[1].name} terminal 1",
            f"connect {wires[1].name} terminal 2 to battery cathode"]
    for text in plan:
        obs, *_ = env.step(text)
        assert "now connected" in obs, obs
    assert not comp.powered
    env.step("activate switch")
    assert not comp.powered         # current flows at the tick after the switch, as in ScienceWorld
    env.step("wait1")
    assert comp.powered and bat.parent is not None
    env.step("deactivate switch")
    assert comp.powered
    env.step("wait1")
    assert not comp.powered


def test_things_in_one_container_share_heat():
    w, room, _ = _kitchen()
    cup = make(w, "glass cup")
    w.place(cup, room)
    hot = make_substance(w, "water", 80.0)
    w.place(hot, cup)
    ice = make_substance(w, "water", -10.0)
    w.move(ice, cup)
    w.touch(cup)
    _ticks(w, 20)   # ScienceWorld-paced conduction: a few percent of the gap a tick
    assert hot.temp < 60 and ice.temp > -10
    _ticks(w, 200)
    assert ice.state == "liquid" and abs(hot.temp - ice.temp) < 1


def test_facts_record_containment_states_and_links():
    from racbench.worlds.science import ScienceEnv, gold_trajectory
    env = ScienceEnv("power-component", 2, "easy")
    env.reset()
    for step in gold_trajectory("power-component", 2, "easy"):
        env.step(step["action"])
    facts = env.facts()
    comp = env.episode.hints["component"]
    me = f"{comp.name}#{comp.uid}"
    assert ("on", me) in facts
    assert sum(1 for f in facts if f[0] == "connected") == 4
    assert facts == sorted(facts, key=lambda f: tuple(str(x) for x in f))
