"""Derived predicates (`:derived` axioms), evaluated as Fast Downward's translator does.

A ground axiom is a rule `head <- pos, not neg` over atom bits (one rule per clause of
the axiom's condition in disjunctive normal form). A derived atom is true exactly when
the rules derive it from the state's other atoms: the least fixpoint, stratified so
that an atom is negated only once every atom it depends on is final. The rules are
layered as the translator layers its axioms (an atom's layer is at least each positive
dependency's and above each negative dependency's; atoms on a cycle share a layer, and
a cycle through a negation is refused), and each layer runs to its fixpoint, lowest
first. `Axioms.close` gives a state its derived atoms; grounding makes every state the
task holds closed (the initial state and every successor), so a state always holds its
derived atoms and questions treat them like any other fact.
"""

from __future__ import annotations

from racbench.worlds.strips.task import iter_bits

Rule = tuple  # (head bit index, positive mask, negative mask)


class NotStratified(ValueError):
    """Derived atoms that depend on their own negation (no stratification exists)."""


class Axioms:
    def __init__(self, rules: list[Rule], derived: int):
        """`rules` over atom bits; `derived` the mask of every derived atom."""
        self.mask = derived
        self.rules = sorted(set(rules))
        self.layers = self._layers()

    def _layers(self) -> list[tuple[list[Rule], dict[int, list[Rule]]]]:
        heads = sorted({h for h, _, _ in self.rules})
        deps: dict[int, set[tuple[int, bool]]] = {h: set() for h in heads}
        for h, pos, neg in self.rules:
            deps[h].update((d, False) for d in iter_bits(pos & self.mask))
            deps[h].update((d, True) for d in iter_bits(neg & self.mask))
        component = _components(heads, {h: [d for d, _ in deps[h] if d in deps]
                                        for h in heads})
        for h in heads:
            for d, negated in deps[h]:
                if negated and component.get(d) == component[h]:
                    raise NotStratified(h, d)
        # layer of a component: max over its dependencies (+1 across a negation)
        by_component: dict[int, list[int]] = {}
        for h in heads:
            by_component.setdefault(component[h], []).append(h)
        layer: dict[int, int] = {}
        for c in sorted(by_component):  # components come numbered dependencies first
            value = 0
            for h in by_component[c]:
                for d, negated in deps[h]:
                    if d in deps and component[d] != c:
                        value = max(value, layer[component[d]] + negated)
            layer[c] = value
        out: dict[int, list[Rule]] = {}
        for rule in self.rules:
            out.setdefault(layer[component[rule[0]]], []).append(rule)
        layers = []
        for n in sorted(out):
            rules = out[n]
            mine = 0
            for h, _, _ in rules:
                mine |= 1 << h
            triggers: dict[int, list[Rule]] = {}
            for rule in rules:
                for d in iter_bits(rule[1] & mine):
                    triggers.setdefault(d, []).append(rule)
            layers.append((rules, triggers))
        return layers

    def close(self, state: int) -> int:
        """`state` with exactly the derived atoms its other atoms derive."""
        state &= ~self.mask
        for rules, triggers in self.layers:
            new = []
            for head, pos, neg in rules:
                bit = 1 << head
                if not state & bit and state & pos == pos and not state & neg:
                    state |= bit
                    new.append(head)
            while new:
                for head, pos, neg in triggers.get(new.pop(), ()):
                    bit = 1 << head
                    if not state & bit and state & pos == pos and not state & neg:
                        state |= bit
                        new.append(head)
        return state


def _components(nodes: list[int], edges: dict[int, list[int]]) -> dict[int, int]:
    """Strongly connected components (Tarjan, iterative), numbered so that a component
    comes after every component it has an edge to."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: list[int] = []
    component: dict[int, int] = {}
    counter = found = 0
    for root in nodes:
        if root in index:
            continue
        work = [(root, 0)]
        while work:
            v, i = work.pop()
            if i == 0:
                index[v] = low[v] = counter
                counter += 1
                stack.append(v)
                on_stack.add(v)
            children = edges[v]
            if i < len(children):
                work.append((v, i + 1))
                w = children[i]
                if w not in index:
                    work.append((w, 0))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component[w] = found
                    if w == v:
                        break
                found += 1
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[v])
    return component
