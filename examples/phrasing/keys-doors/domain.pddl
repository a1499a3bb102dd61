; A robot walks between rooms; a locked door opens with its key.
(define (domain keys-doors)
  (:requirements :strips :typing)
  (:types room key)
  (:predicates (at ?r - room)
               (door ?from ?to - room)
               (locked ?from ?to - room)
               (opens ?k - key ?from ?to - room)
               (key-in ?k - key ?r - room)
               (holding ?k - key))
  (:action move
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (door ?from ?to) (not (locked ?from ?to)))
    :effect (and (at ?to) (not (at ?from))))
  (:action pick-up
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (key-in ?k ?r))
    :effect (and (holding ?k) (not (key-in ?k ?r))))
  (:action unlock
    :parameters (?k - key ?from ?to - room)
    :precondition (and (at ?from) (holding ?k) (opens ?k ?from ?to) (locked ?from ?to))
    :effect (not (locked ?from ?to))))
