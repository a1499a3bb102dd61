(define (problem keys-p02) (:domain keys-doors)
  (:objects hall kitchen vault - room k1 k2 - key)
  (:init
    (at hall) (door hall kitchen) (door kitchen hall) (locked hall kitchen)
    (locked kitchen hall) (fits k1 hall kitchen) (fits k1 kitchen hall) (door kitchen vault)
    (door vault kitchen) (locked kitchen vault) (locked vault kitchen) (fits k2 kitchen vault)
    (fits k2 vault kitchen) (key-in k1 hall) (key-in k2 kitchen))
  (:goal (at vault)))
