;; Gripper: a robot with several grippers carries balls between rooms.
(define (domain gripper)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types room ball gripper)
  (:predicates
    (robot-at ?r - room)
    (at ?b - ball ?r - room)
    (free ?g - gripper)
    (carry ?b - ball ?g - gripper))

  (:action move
    :parameters (?from - room ?to - room)
    :precondition (and (robot-at ?from) (not (= ?from ?to)))
    :effect (and (robot-at ?to) (not (robot-at ?from))))

  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (robot-at ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))

  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (robot-at ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))
