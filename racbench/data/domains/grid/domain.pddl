;; Grid: a robot moves between open places, unlocks locked places with keys of
;; the matching shape, and carries keys (one at a time) to goal places.
(define (domain grid)
  (:requirements :strips :typing)
  (:types place key shape)
  (:predicates
    (conn ?from - place ?to - place)
    (key-shape ?k - key ?s - shape)
    (lock-shape ?p - place ?s - shape)
    (at ?k - key ?p - place)
    (robot-at ?p - place)
    (locked ?p - place)
    (open ?p - place)
    (holding ?k - key)
    (arm-empty))

  (:action unlock
    :parameters (?cur - place ?lock - place ?k - key ?s - shape)
    :precondition (and (robot-at ?cur) (conn ?cur ?lock) (locked ?lock)
                       (holding ?k) (key-shape ?k ?s) (lock-shape ?lock ?s))
    :effect (and (open ?lock) (not (locked ?lock))))

  (:action move
    :parameters (?cur - place ?next - place)
    :precondition (and (robot-at ?cur) (conn ?cur ?next) (open ?next))
    :effect (and (robot-at ?next) (not (robot-at ?cur))))

  (:action pickup
    :parameters (?cur - place ?k - key)
    :precondition (and (robot-at ?cur) (at ?k ?cur) (arm-empty))
    :effect (and (holding ?k) (not (at ?k ?cur)) (not (arm-empty))))

  (:action pickup-and-loose
    :parameters (?cur - place ?new - key ?old - key)
    :precondition (and (robot-at ?cur) (at ?new ?cur) (holding ?old))
    :effect (and (holding ?new) (at ?old ?cur)
                 (not (holding ?old)) (not (at ?new ?cur))))

  (:action putdown
    :parameters (?cur - place ?k - key)
    :precondition (and (robot-at ?cur) (holding ?k))
    :effect (and (at ?k ?cur) (arm-empty) (not (holding ?k)))))
