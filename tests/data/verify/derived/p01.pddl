(define (problem chain-4) (:domain chain)
  (:objects a b c d)
  (:init (link a b) (link b c) (link c d))
  (:goal (and)))
