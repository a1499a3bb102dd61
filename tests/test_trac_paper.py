"""The paper's worked examples (TRAC Table 1 / Listing 1) with the paper's labels,
re-derived by the families that make TRAC's rows, from a row's symbolic form alone."""

from racbench.tasks import FAMILIES
from racbench.tasks.rows import TRAC_TEMPLATES
from racbench.tasks.symbolic import symbolic_task
from racbench.text.phrasing import TaskText
from racbench.worlds.strips.shipped import trac_domain_file
from racbench.worlds.strips.world import domain_text

OBJECTS3 = ["blue", "magenta", "white"]
TOWER = [["clear", "blue"], ["on", "blue", "magenta"], ["on", "magenta", "white"],
         ["ontable", "white"]]


def answer(task, objects, init, actions, query=None, goal=None):
    """The family's truth of a TRAC row with this problem (subject: the query)."""
    sym = {"family": task, "form": "bool", "domain": "blocksworld",
           "domain_pddl": domain_text(trac_domain_file())[0], "problem": "example",
           "objects": {o: "block" for o in objects}, "state": init, "actions": actions,
           "subject": query}
    if goal is not None:
        sym["goal"] = goal
    return FAMILIES[task].truth(symbolic_task(sym), query)


def test_projection_example_is_false():
    init = [["ontable", "green"], ["clear", "red"], ["clear", "blue"], ["clear", "green"],
            ["ontable", "red"], ["ontable", "blue"]]
    assert answer("projection", objects=["blue", "green", "red"], init=init,
                  actions=[["movefromtable", "green", "red"]],
                  query=[{"atom": ["on", "blue", "red"], "positive": True}]) is False


def test_executability_example_is_true():
    init = [["ontable", "olive"], ["on", "yellow", "olive"], ["clear", "indigo"],
            ["on", "indigo", "yellow"]]
    assert answer("executability", objects=["indigo", "olive", "yellow"], init=init,
                  actions=[["movetotable", "indigo", "yellow"]]) is True


def test_planning_example_is_true():
    assert answer("planning", objects=OBJECTS3, init=TOWER,
                  actions=[["movetotable", "blue", "magenta"]],
                  goal=[{"atom": ["on", "blue", "magenta"], "positive": False}]) is True


def test_goal_recognition_example_is_false():
    assert answer("goal_recognition", objects=OBJECTS3, init=TOWER,
                  actions=[["movetotable", "blue", "magenta"]],
                  goal=[{"atom": ["on", "blue", "magenta"], "positive": True}]) is False


def test_move_needs_distinct_blocks():
    """move(x, y, x) would put a block on itself; the shipped domain forbids it."""
    init = [["on", "blue", "magenta"], ["clear", "blue"], ["ontable", "magenta"]]
    assert answer("executability", objects=["blue", "magenta"], init=init,
                  actions=[["move", "blue", "magenta", "blue"]]) is False


def test_paper_sentences_come_out_of_the_templates():
    text = TaskText(domain_text(trac_domain_file())[1], templates=TRAC_TEMPLATES)
    assert (text.sentence(text.action(("movefromtable", "green", "red")))
            == "Jane moves the green block from the table to the red block.")
    assert (text.sentence(text.action(("movetotable", "indigo", "yellow")))
            == "Jane moves the indigo block from the yellow block onto the table.")
    assert (text.conjunction([(("ontable", "blue"), True), (("on", "green", "blue"), False)])
            == "the blue block is on the table and the green block is not on top of the blue block")
