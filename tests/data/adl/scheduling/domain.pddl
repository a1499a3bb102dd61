; A job shop in the style of the competitions' ADL schedule domain: each machine
; works one part per time step, and what it does to a part depends on the part's
; condition (conditional effects, most of them under forall). A time step frees
; every machine and part and lets hot parts cool.
(define (domain scheduling-adl)
  (:requirements :adl)
  (:types part machine ashape surface colour)
  (:constants lathe polisher grinder painter - machine
              cylindrical oblong - ashape
              rough smooth polished - surface)
  (:predicates (shape ?x - part ?s - ashape)
               (surface-condition ?x - part ?s - surface)
               (painted ?x - part ?c - colour)
               (has-paint ?c - colour)
               (hot ?x - part)
               (busy ?m - machine)
               (scheduled ?x - part))

  (:action do-lathe
    :parameters (?x - part)
    :precondition (and (not (busy lathe)) (not (scheduled ?x)))
    :effect (and (busy lathe) (scheduled ?x) (shape ?x cylindrical) (surface-condition ?x rough)
                 (forall (?s - ashape)
                   (when (and (shape ?x ?s) (not (= ?s cylindrical))) (not (shape ?x ?s))))
                 (forall (?s - surface)
                   (when (and (surface-condition ?x ?s) (not (= ?s rough))) (not (surface-condition ?x ?s))))
                 (forall (?c - colour) (when (painted ?x ?c) (not (painted ?x ?c))))))

  (:action do-polish
    :parameters (?x - part)
    :precondition (and (not (busy polisher)) (not (scheduled ?x)) (not (hot ?x))
                       (or (surface-condition ?x smooth) (surface-condition ?x rough)))
    :effect (and (busy polisher) (scheduled ?x) (surface-condition ?x polished)
                 (forall (?s - surface)
                   (when (and (surface-condition ?x ?s) (not (= ?s polished))) (not (surface-condition ?x ?s))))))

  (:action do-grind
    :parameters (?x - part)
    :precondition (and (not (busy grinder)) (not (scheduled ?x)))
    :effect (and (busy grinder) (scheduled ?x) (hot ?x) (surface-condition ?x smooth)
                 (forall (?s - surface)
                   (when (and (surface-condition ?x ?s) (not (= ?s smooth))) (not (surface-condition ?x ?s))))
                 (forall (?c - colour) (when (painted ?x ?c) (not (painted ?x ?c))))))

  (:action do-paint
    :parameters (?x - part ?c - colour)
    :precondition (and (not (busy painter)) (not (scheduled ?x)) (has-paint ?c)
                       (not (hot ?x)) (not (painted ?x ?c)))
    :effect (and (busy painter) (scheduled ?x) (painted ?x ?c)
                 (forall (?d - colour)
                   (when (and (painted ?x ?d) (not (= ?d ?c))) (not (painted ?x ?d))))
                 (when (surface-condition ?x polished)
                       (and (not (surface-condition ?x polished)) (surface-condition ?x smooth)))))

  (:action time-step
    :parameters ()
    :precondition (exists (?m - machine) (busy ?m))
    :effect (and (forall (?m - machine) (when (busy ?m) (not (busy ?m))))
                 (forall (?x - part) (when (scheduled ?x) (not (scheduled ?x))))
                 (forall (?x - part) (when (and (hot ?x) (not (scheduled ?x)))
                                           (not (hot ?x)))))))
