;; Swap: agents walk along a graph of locations; each agent holds exactly one
;; item, and two agents at the same location can exchange their items.
(define (domain swap)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types agent item location)
  (:predicates
    (agent-at ?a - agent ?l - location)
    (connected ?from - location ?to - location)
    (holds ?a - agent ?i - item))

  (:action move
    :parameters (?a - agent ?from - location ?to - location)
    :precondition (and (agent-at ?a ?from) (connected ?from ?to))
    :effect (and (agent-at ?a ?to) (not (agent-at ?a ?from))))

  (:action swap
    :parameters (?a1 - agent ?a2 - agent ?i1 - item ?i2 - item ?l - location)
    :precondition (and (agent-at ?a1 ?l) (agent-at ?a2 ?l)
                       (holds ?a1 ?i1) (holds ?a2 ?i2)
                       (not (= ?a1 ?a2)))
    :effect (and (holds ?a1 ?i2) (holds ?a2 ?i1)
                 (not (holds ?a1 ?i1)) (not (holds ?a2 ?i2)))))
