; An elevator in the style of the planning competitions' ADL miconic: the lift may
; stop at a floor only if no passenger on board is barred from it (forall + imply),
; and while a VIP waits unserved it stops only where a VIP gets on or off.
; Stopping lets passengers off and on (conditional effects under forall).
(define (domain elevator-adl)
  (:requirements :adl)
  (:types passenger floor)
  (:predicates (origin ?p - passenger ?f - floor)
               (destin ?p - passenger ?f - floor)
               (above ?f1 - floor ?f2 - floor)
               (vip ?p - passenger)
               (no-access ?p - passenger ?f - floor)
               (boarded ?p - passenger)
               (served ?p - passenger)
               (lift-at ?f - floor))

  (:action stop
    :parameters (?f - floor)
    :precondition (and (lift-at ?f)
                       (forall (?p - passenger)
                         (imply (and (no-access ?p ?f) (boarded ?p)) (served ?p)))
                       (imply (exists (?p - passenger) (and (vip ?p) (not (served ?p))))
                              (exists (?p - passenger)
                                (and (vip ?p) (not (served ?p))
                                     (or (and (origin ?p ?f) (not (boarded ?p)))
                                         (and (destin ?p ?f) (boarded ?p)))))))
    :effect (and (forall (?p - passenger)
                   (when (and (boarded ?p) (destin ?p ?f))
                         (and (not (boarded ?p)) (served ?p))))
                 (forall (?p - passenger)
                   (when (and (origin ?p ?f) (not (served ?p)))
                         (boarded ?p)))))

  (:action up
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f1 ?f2))
    :effect (and (lift-at ?f2) (not (lift-at ?f1))))

  (:action down
    :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1))
    :effect (and (lift-at ?f2) (not (lift-at ?f1)))))
