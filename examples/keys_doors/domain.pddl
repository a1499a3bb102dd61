(define (domain keys-doors)
  (:requirements :strips :typing)
  (:types room key)
  (:predicates (at ?r - room) (key-in ?k - key ?r - room) (holding ?k - key)
               (door ?from - room ?to - room) (locked ?from - room ?to - room)
               (unlocked ?from - room ?to - room) (fits ?k - key ?from - room ?to - room))
  (:action move
    :parameters (?from - room ?to - room)
    :precondition (and (at ?from) (door ?from ?to) (unlocked ?from ?to))
    :effect (and (at ?to) (not (at ?from))))
  (:action pick-up
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (key-in ?k ?r))
    :effect (and (holding ?k) (not (key-in ?k ?r))))
  (:action unlock
    :parameters (?k - key ?from - room ?to - room)
    :precondition (and (at ?from) (holding ?k) (fits ?k ?from ?to) (locked ?from ?to))
    :effect (and (unlocked ?from ?to) (unlocked ?to ?from)
                 (not (locked ?from ?to)) (not (locked ?to ?from)))))
