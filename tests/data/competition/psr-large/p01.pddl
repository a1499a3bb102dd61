;; A small problem written for racbench: breaker cb1 is closed onto faulty
;; line l1 (so the first step must be to wait for it to open), and line l2 is
;; to be fed through breaker cb2 and switch sd1 (no problem of the collection
;; is stored in the mirrors searched).

(define (problem psr-small-net)
  (:domain psr)
  (:objects cb1 cb2 sd1 - DEVICE
            l1 l2 - LINE)
  (:init (breaker cb1) (breaker cb2)
         (closed cb1)
         (ext l1 cb1 side2) (faulty l1)
         (con cb2 side2 sd1 side1) (con sd1 side1 cb2 side2)
         (ext l2 sd1 side2))
  (:goal (fed l2)))
