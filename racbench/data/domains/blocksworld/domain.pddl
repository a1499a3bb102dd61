;; Blocksworld with a single hand: four operators (pick-up, put-down, stack, unstack).
(define (domain blocksworld)
  (:requirements :strips :typing :equality)
  (:types block)
  (:predicates
    (on ?top - block ?below - block)
    (on-table ?b - block)
    (clear ?b - block)
    (hand-empty)
    (holding ?b - block))

  (:action pick-up
    :parameters (?b - block)
    :precondition (and (clear ?b) (on-table ?b) (hand-empty))
    :effect (and (holding ?b)
                 (not (clear ?b)) (not (on-table ?b)) (not (hand-empty))))

  (:action put-down
    :parameters (?b - block)
    :precondition (holding ?b)
    :effect (and (on-table ?b) (clear ?b) (hand-empty)
                 (not (holding ?b))))

  (:action stack
    :parameters (?b - block ?target - block)
    :precondition (and (holding ?b) (clear ?target) (not (= ?b ?target)))
    :effect (and (on ?b ?target) (clear ?b) (hand-empty)
                 (not (holding ?b)) (not (clear ?target))))

  (:action unstack
    :parameters (?b - block ?from - block)
    :precondition (and (on ?b ?from) (clear ?b) (hand-empty) (not (= ?b ?from)))
    :effect (and (holding ?b) (clear ?from)
                 (not (on ?b ?from)) (not (clear ?b)) (not (hand-empty)))))
