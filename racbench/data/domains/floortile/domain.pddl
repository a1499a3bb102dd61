;; Floortile: robots paint the tiles directly above or below them; a painted
;; tile can no longer be entered, and robots block each other.
(define (domain floortile)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types robot tile color)
  (:predicates
    (robot-at ?r - robot ?t - tile)
    (above ?t1 - tile ?t2 - tile)      ; ?t1 lies directly above ?t2
    (below ?t1 - tile ?t2 - tile)      ; ?t1 lies directly below ?t2
    (right-of ?t1 - tile ?t2 - tile)   ; ?t1 lies directly right of ?t2
    (left-of ?t1 - tile ?t2 - tile)    ; ?t1 lies directly left of ?t2
    (clear ?t - tile)
    (painted ?t - tile ?c - color)
    (robot-has ?r - robot ?c - color)
    (available-color ?c - color))

  (:action change-color
    :parameters (?r - robot ?old - color ?new - color)
    :precondition (and (robot-has ?r ?old) (available-color ?new)
                       (not (= ?old ?new)))
    :effect (and (robot-has ?r ?new) (not (robot-has ?r ?old))))

  (:action paint-up
    :parameters (?r - robot ?target - tile ?pos - tile ?c - color)
    :precondition (and (robot-at ?r ?pos) (above ?target ?pos) (clear ?target)
                       (robot-has ?r ?c))
    :effect (and (painted ?target ?c) (not (clear ?target))))

  (:action paint-down
    :parameters (?r - robot ?target - tile ?pos - tile ?c - color)
    :precondition (and (robot-at ?r ?pos) (below ?target ?pos) (clear ?target)
                       (robot-has ?r ?c))
    :effect (and (painted ?target ?c) (not (clear ?target))))

  (:action move-up
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (above ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (clear ?from)
                 (not (robot-at ?r ?from)) (not (clear ?to))))

  (:action move-down
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (below ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (clear ?from)
                 (not (robot-at ?r ?from)) (not (clear ?to))))

  (:action move-right
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (right-of ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (clear ?from)
                 (not (robot-at ?r ?from)) (not (clear ?to))))

  (:action move-left
    :parameters (?r - robot ?from - tile ?to - tile)
    :precondition (and (robot-at ?r ?from) (left-of ?to ?from) (clear ?to))
    :effect (and (robot-at ?r ?to) (clear ?from)
                 (not (robot-at ?r ?from)) (not (clear ?to)))))
