;; Visitall: a robot walks over a grid of cells and must visit a set of cells.
(define (domain visitall)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates
    (connected ?from - cell ?to - cell)
    (robot-at ?c - cell)
    (visited ?c - cell))

  (:action move
    :parameters (?from - cell ?to - cell)
    :precondition (and (robot-at ?from) (connected ?from ?to))
    :effect (and (robot-at ?to) (visited ?to) (not (robot-at ?from)))))
