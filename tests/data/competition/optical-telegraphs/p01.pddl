;; A small problem written for racbench: one telegraph station that sends a
;; signal down a one-cell channel and reads it back (no problem of the
;; collection is stored in the mirrors searched).

(define (problem telegraph-1)
(:domain protocol)
(:objects
  station-0 - process
  line-0 - queue
  line-type - queuetype
  cell-0 - queue-state
  empty signal - message
  zero one - number_
  telegraph - proctype
  idle sent done - state
  send receive - transition)
(:init
  (queue-next line-type cell-0 cell-0)
  (is-not-max line-type zero)
  (is-max line-type one)
  (pending station-0)
  (at-process station-0 idle)
  (is-a-process station-0 telegraph)
  (is-zero zero)
  (is-not-zero one)
  (inc zero one)
  (dec one zero)
  (is-a-queue line-0 line-type)
  (queue-head line-0 cell-0)
  (queue-tail line-0 cell-0)
  (queue-head-msg line-0 empty)
  (queue-size line-0 zero)
  (settled line-0)
  (writes station-0 line-0 send)
  (trans-msg send signal)
  (reads station-0 line-0 receive)
  (trans-msg receive signal)
  (trans telegraph send idle sent)
  (trans telegraph receive sent done))
(:goal (blocked station-0)))
