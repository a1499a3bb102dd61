; A household in the style of ALFRED/ALFWorld's PDDL: a robot walks between
; receptacles, carries one object at a time, and slices with anything of knife or
; butter-knife type (a disjunction over a static predicate). Cleaning needs a sink or
; a bathtub, and heating a microwave that is closed or a stove (a disjunction over
; fluents as well).
(define (domain household-adl)
  (:requirements :adl)
  (:types receptacle thing otype rtype)
  (:constants knifetype butterknifetype appletype breadtype mugtype - otype
              sinktype bathtubtype microwavetype stovetype countertype - rtype)
  (:predicates (robot-at ?r - receptacle)
               (in ?o - thing ?r - receptacle)
               (holding ?o - thing)
               (hand-empty)
               (objecttype ?o - thing ?t - otype)
               (receptacletype ?r - receptacle ?t - rtype)
               (closed ?r - receptacle)
               (sliceable ?o - thing)
               (sliced ?o - thing)
               (clean ?o - thing)
               (hot ?o - thing))

  (:action goto
    :parameters (?from - receptacle ?to - receptacle)
    :precondition (and (robot-at ?from) (not (= ?from ?to)))
    :effect (and (robot-at ?to) (not (robot-at ?from))))

  (:action pickup
    :parameters (?o - thing ?r - receptacle)
    :precondition (and (robot-at ?r) (in ?o ?r) (hand-empty) (not (closed ?r)))
    :effect (and (holding ?o) (not (in ?o ?r)) (not (hand-empty))))

  (:action put
    :parameters (?o - thing ?r - receptacle)
    :precondition (and (robot-at ?r) (holding ?o) (not (closed ?r)))
    :effect (and (in ?o ?r) (hand-empty) (not (holding ?o))))

  (:action toggle-door
    :parameters (?r - receptacle)
    :precondition (and (robot-at ?r) (receptacletype ?r microwavetype))
    :effect (and (when (closed ?r) (not (closed ?r)))
                 (when (not (closed ?r)) (closed ?r))))

  (:action slice
    :parameters (?o - thing ?k - thing ?r - receptacle)
    :precondition (and (robot-at ?r) (in ?o ?r) (sliceable ?o) (holding ?k)
                       (or (objecttype ?k knifetype) (objecttype ?k butterknifetype))
                       (not (sliced ?o)))
    :effect (sliced ?o))

  (:action rinse
    :parameters (?o - thing ?r - receptacle)
    :precondition (and (robot-at ?r) (holding ?o)
                       (or (receptacletype ?r sinktype) (receptacletype ?r bathtubtype)))
    :effect (clean ?o))

  (:action heat
    :parameters (?o - thing ?r - receptacle)
    :precondition (and (robot-at ?r) (holding ?o)
                       (or (and (receptacletype ?r microwavetype) (closed ?r))
                           (receptacletype ?r stovetype)))
    :effect (and (hot ?o) (when (sliced ?o) (not (clean ?o))))))
