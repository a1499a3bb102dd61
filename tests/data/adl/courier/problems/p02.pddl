; p1 must not be held, p2 at home only if the courier is at the office, and either p1
; at home or p3 at c.
(define (problem courier-p02)
  (:domain courier)
  (:objects home a b c office - place
            p1 p2 p3 - package)
  (:init (at a) (free)
         (road home a) (road a home) (road a office) (road office a)
         (road a b) (road b a) (road b c) (road c b)
         (pkg-at p1 office) (pkg-at p2 c) (pkg-at p3 home))
  (:goal (and (not (holding p1))
              (imply (pkg-at p2 home) (at office))
              (or (pkg-at p1 home) (pkg-at p3 c)))))
