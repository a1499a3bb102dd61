; A courier carries one package at a time along roads. Written for racbench's tests of
; goals that are not one conjunction (no domain of the public competition collection
; has one): its problems' goals mix or, exists, imply and not.
(define (domain courier)
  (:requirements :adl)
  (:types place package)
  (:predicates (at ?l - place)
               (road ?from - place ?to - place)
               (pkg-at ?p - package ?l - place)
               (holding ?p - package)
               (free))

  (:action move
    :parameters (?from - place ?to - place)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to)))

  (:action pick
    :parameters (?p - package ?l - place)
    :precondition (and (at ?l) (pkg-at ?p ?l) (free))
    :effect (and (holding ?p) (not (pkg-at ?p ?l)) (not (free))))

  (:action drop
    :parameters (?p - package ?l - place)
    :precondition (and (at ?l) (holding ?p))
    :effect (and (pkg-at ?p ?l) (free) (not (holding ?p)))))
