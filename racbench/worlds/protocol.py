"""The world protocol: all a task family may ask of a world.

A world is a STRIPS problem (worlds/strips/world.py) or a science-lab task variation
(worlds/science/lab.py). States are opaque handles (an int for STRIPS, the command
history for the lab); families step them and read facts through these methods only, so
any family that makes sense on a world runs on it:

- stepping: `sample_state(rng)`, `applicable(state)`, `succ(state)` -> (actions, next
  states), `step(state, action)` -> next state or None, `execute(state, plan)`;
  `initial`, the episode's first state;
- observing: `observe(state, action, text)` -> (next state, what the world says back),
  for any action, doable or not: the lab answers in its own words (a refused command
  is still typed, so it joins the state's history); a STRIPS world says which facts the
  action made true and false, in `text`'s phrasing, and that nothing happens when it
  cannot be done (the state stays);
- facts and terms: `facts(state)`, `fact_kind(fact)`, `question_facts(plan, states)`,
  `action_term(action)`, `action_kind(action)`, `inapplicable(state)`, and `kind_of(term)`,
  what an mc option shows besides names (balance.py picks option sets by it; the lab
  has it for facts, the options of its mc rows);
- what a row's text can support: `question_facts` gives only facts a reader of the
  first state's context can know, and `askable(state, actions)` says whether a question
  whose context shows `state` may name `actions` (a STRIPS context shows the whole state,
  so any; the lab's shows one room, see worlds/science/lab.py);
- text and records: `text(...)` (the world's phrasing), `render_state(state, text, rng)`,
  `typed_before(state)` (the commands a context lists before the state: the lab's),
  `symbolic(state)` (what a row stores to rebuild the state), `sizes()`;
- oracle queries (STRIPS worlds; worlds/strips/world.py): `distance(state, cond)`,
  `optimal_plan(rng, state, cond)`, `optimal_steps(state)`, `at_goal(state)`,
  `state_at_goal_distance(rng, lo, hi)`, `reachable_atoms`/`unreachable_atoms`,
  `reachable_actions`/`unreachable_actions`, `together`, `co_applicable`. An
  enumerated world (`explicit`) answers them from its graph; an implicit one (too many
  states) by bounded search, proving each answer or raising SearchBudgetExceeded (the
  question is drawn again), and its reachable/unreachable sets are each proven, with
  undecided facts in neither. Families ask these, never the graph itself;
  STRIPS-only families also read the grounded task (`task.atoms`, `task.actions`) to
  name facts and actions.
"""

from __future__ import annotations


class World:
    """What every world shares: running a plan given `step`, and (unless a world says
    otherwise) contexts that show the whole state."""

    explicit = False

    def step(self, state, action):
        raise NotImplementedError

    def observe(self, state, action, text):
        raise NotImplementedError

    def typed_before(self, state) -> tuple:
        """The commands a question's context lists as typed before `state`: none where
        the context shows the whole state."""
        return ()

    def askable(self, state, actions) -> bool:
        """Whether a question whose context shows `state` may name `actions` (typed in
        order from there): always, where the context shows the whole state."""
        return True

    def execute(self, state, plan) -> tuple[object, int | None]:
        """(final state, first failing step or None)."""
        for i, action in enumerate(plan):
            nxt = self.step(state, action)
            if nxt is None:
                return state, i
            state = nxt
        return state, None
