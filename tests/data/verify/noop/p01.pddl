(define (problem n) (:domain noop) (:init (p)) (:goal (and)))
