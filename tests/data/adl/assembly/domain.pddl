; An assembly workshop in the style of the competitions' ADL assembly domain: a part
; comes off a shelf only if some open shelf stocks it, a shelf opens only for a key
; that some held tool is, and an assembly is put together when all its parts are at
; hand and the worker holds some tool that fits it (exists, forall, imply).
(define (domain assembly-adl)
  (:requirements :adl)
  (:types item - object assembly part - item tool shelf)
  (:predicates (part-of ?p - part ?a - assembly)
               (stocked ?p - part ?s - shelf)
               (key-for ?t - tool ?s - shelf)
               (fits ?t - tool ?a - assembly)
               (needs ?a - assembly ?b - assembly)
               (open ?s - shelf)
               (on-rack ?t - tool)
               (holding ?t - tool)
               (hand-empty)
               (at-hand ?p - part)
               (assembled ?a - assembly))

  (:action take-tool
    :parameters (?t - tool)
    :precondition (and (hand-empty) (on-rack ?t))
    :effect (and (holding ?t) (not (hand-empty)) (not (on-rack ?t))))

  (:action put-back
    :parameters (?t - tool)
    :precondition (holding ?t)
    :effect (and (on-rack ?t) (hand-empty) (not (holding ?t))))

  (:action open-shelf
    :parameters (?s - shelf)
    :precondition (and (not (open ?s))
                       (exists (?t - tool) (and (holding ?t) (key-for ?t ?s))))
    :effect (open ?s))

  (:action fetch
    :parameters (?p - part)
    :precondition (and (not (at-hand ?p))
                       (exists (?s - shelf) (and (stocked ?p ?s) (open ?s))))
    :effect (at-hand ?p))

  (:action assemble
    :parameters (?a - assembly)
    :precondition (and (not (assembled ?a))
                       (forall (?p - part) (imply (part-of ?p ?a) (at-hand ?p)))
                       (forall (?b - assembly) (imply (needs ?a ?b) (assembled ?b)))
                       (exists (?t - tool) (and (holding ?t) (fits ?t ?a))))
    :effect (and (assembled ?a)
                 (forall (?p - part) (when (part-of ?p ?a) (not (at-hand ?p)))))))
