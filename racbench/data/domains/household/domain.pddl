;; Household: an agent with one hand walks between the locations of
;; receptacles, opens and closes receptacles, picks items up and puts them
;; into receptacles, and heats (microwave), cools (fridge) or cleans
;; (sink basin) the item it holds.
(define (domain household)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types
    microwave fridge sinkbasin - receptacle
    location receptacle item)
  (:predicates
    (agent-at ?l - location)
    (receptacle-at ?r - receptacle ?l - location)
    (in ?o - item ?r - receptacle)
    (openable ?r - receptacle)
    (opened ?r - receptacle)
    (holding ?o - item)
    (hand-empty)
    (heatable ?o - item)
    (coolable ?o - item)
    (cleanable ?o - item)
    (is-hot ?o - item)
    (is-cold ?o - item)
    (is-clean ?o - item))

  (:action go-to
    :parameters (?from - location ?to - location)
    :precondition (and (agent-at ?from) (not (= ?from ?to)))
    :effect (and (agent-at ?to) (not (agent-at ?from))))

  (:action open-receptacle
    :parameters (?r - receptacle ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?r ?l) (openable ?r)
                       (not (opened ?r)))
    :effect (opened ?r))

  (:action close-receptacle
    :parameters (?r - receptacle ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?r ?l) (openable ?r)
                       (opened ?r))
    :effect (not (opened ?r)))

  (:action pick-up
    :parameters (?o - item ?r - receptacle ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?r ?l) (opened ?r)
                       (in ?o ?r) (hand-empty))
    :effect (and (holding ?o) (not (in ?o ?r)) (not (hand-empty))))

  (:action put
    :parameters (?o - item ?r - receptacle ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?r ?l) (opened ?r)
                       (holding ?o))
    :effect (and (in ?o ?r) (hand-empty) (not (holding ?o))))

  (:action heat
    :parameters (?o - item ?m - microwave ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?m ?l) (holding ?o)
                       (heatable ?o))
    :effect (and (is-hot ?o) (not (is-cold ?o))))

  (:action cool
    :parameters (?o - item ?f - fridge ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?f ?l) (holding ?o)
                       (coolable ?o))
    :effect (and (is-cold ?o) (not (is-hot ?o))))

  (:action clean
    :parameters (?o - item ?s - sinkbasin ?l - location)
    :precondition (and (agent-at ?l) (receptacle-at ?s ?l) (holding ?o)
                       (cleanable ?o))
    :effect (is-clean ?o)))
