(define (problem two) (:domain switch) (:objects a b)
  (:init (off a) (off b)) (:goal (and (on a) (on b))))
