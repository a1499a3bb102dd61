;; Ferry: a single ferry with room for one car carries cars between locations.
(define (domain ferry)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types car location)
  (:predicates
    (ferry-at ?l - location)
    (at ?c - car ?l - location)
    (ferry-empty)
    (on-ferry ?c - car))

  (:action sail
    :parameters (?from - location ?to - location)
    :precondition (and (ferry-at ?from) (not (= ?from ?to)))
    :effect (and (ferry-at ?to) (not (ferry-at ?from))))

  (:action board
    :parameters (?c - car ?l - location)
    :precondition (and (at ?c ?l) (ferry-at ?l) (ferry-empty))
    :effect (and (on-ferry ?c) (not (at ?c ?l)) (not (ferry-empty))))

  (:action debark
    :parameters (?c - car ?l - location)
    :precondition (and (on-ferry ?c) (ferry-at ?l))
    :effect (and (at ?c ?l) (ferry-empty) (not (on-ferry ?c)))))
