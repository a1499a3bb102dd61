; The courier must end at home, with p1 at the office or some other package at home.
(define (problem courier-p01)
  (:domain courier)
  (:objects home a b c office - place
            p1 p2 p3 - package)
  (:init (at home) (free)
         (road home a) (road a home) (road a office) (road office a)
         (road a b) (road b a) (road b c) (road c b)
         (pkg-at p1 c) (pkg-at p2 b) (pkg-at p3 office))
  (:goal (and (at home)
              (or (pkg-at p1 office)
                  (exists (?p - package) (and (pkg-at ?p home) (not (= ?p p1))))))))
