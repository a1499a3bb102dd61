;; Goldminer: a robot in a grid clears hard rock with a laser and soft rock
;; with a laser or a bomb; the laser also destroys gold, a bomb does not.
;; The goal is to hold the gold.
(define (domain goldminer)
  (:requirements :strips :typing)
  (:types loc)
  (:predicates
    (connected ?from - loc ?to - loc)
    (robot-at ?l - loc)
    (bomb-at ?l - loc)
    (laser-at ?l - loc)
    (soft-rock-at ?l - loc)
    (hard-rock-at ?l - loc)
    (gold-at ?l - loc)
    (clear ?l - loc)
    (arm-empty)
    (holds-bomb)
    (holds-laser)
    (holds-gold))

  (:action move
    :parameters (?from - loc ?to - loc)
    :precondition (and (robot-at ?from) (connected ?from ?to) (clear ?to))
    :effect (and (robot-at ?to) (not (robot-at ?from))))

  (:action pickup-laser
    :parameters (?l - loc)
    :precondition (and (robot-at ?l) (laser-at ?l) (arm-empty))
    :effect (and (holds-laser) (not (laser-at ?l)) (not (arm-empty))))

  (:action putdown-laser
    :parameters (?l - loc)
    :precondition (and (robot-at ?l) (holds-laser))
    :effect (and (laser-at ?l) (arm-empty) (not (holds-laser))))

  (:action pickup-bomb
    :parameters (?l - loc)
    :precondition (and (robot-at ?l) (bomb-at ?l) (arm-empty))
    :effect (and (holds-bomb) (not (arm-empty))))

  (:action detonate-bomb
    :parameters (?from - loc ?to - loc)
    :precondition (and (robot-at ?from) (holds-bomb) (connected ?from ?to)
                       (soft-rock-at ?to))
    :effect (and (clear ?to) (arm-empty)
                 (not (holds-bomb)) (not (soft-rock-at ?to))))

  (:action fire-laser
    :parameters (?from - loc ?to - loc)
    :precondition (and (robot-at ?from) (holds-laser) (connected ?from ?to))
    :effect (and (clear ?to)
                 (not (soft-rock-at ?to)) (not (hard-rock-at ?to)) (not (gold-at ?to))))

  (:action pick-gold
    :parameters (?l - loc)
    :precondition (and (robot-at ?l) (gold-at ?l) (arm-empty))
    :effect (and (holds-gold) (not (arm-empty)))))
