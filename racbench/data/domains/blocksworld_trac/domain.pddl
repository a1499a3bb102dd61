; Blocksworld as TRAC defines it (He et al., appendix B): a table with unlimited room,
; blocks stacked in towers, and three actions that move one clear block at a time.
; The inequalities are ours: without them move(x, y, x) would be applicable and would
; put a block on itself, which the paper's semantics never intends.
(define (domain blocksworld)
  (:requirements :strips :typing :equality)
  (:types block - object)
  (:predicates (clear ?x - block)
               (on ?x - block ?y - block)
               (ontable ?x - block))

  (:action move
    :parameters (?x - block ?y - block ?z - block)
    :precondition (and (clear ?x) (clear ?z) (on ?x ?y)
                       (not (= ?x ?y)) (not (= ?x ?z)) (not (= ?y ?z)))
    :effect (and (not (clear ?z)) (not (on ?x ?y)) (on ?x ?z) (clear ?y)))

  (:action movetotable
    :parameters (?x - block ?y - block)
    :precondition (and (clear ?x) (on ?x ?y) (not (= ?x ?y)))
    :effect (and (not (on ?x ?y)) (clear ?y) (ontable ?x)))

  (:action movefromtable
    :parameters (?x - block ?y - block)
    :precondition (and (ontable ?x) (clear ?x) (clear ?y) (not (= ?x ?y)))
    :effect (and (not (ontable ?x)) (not (clear ?y)) (on ?x ?y))))
