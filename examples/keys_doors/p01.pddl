(define (problem keys-p01) (:domain keys-doors)
  (:objects hall kitchen vault - room k1 - key)
  (:init
    (at hall) (door hall kitchen) (door kitchen hall) (unlocked hall kitchen)
    (unlocked kitchen hall) (door kitchen vault) (door vault kitchen) (locked kitchen vault)
    (locked vault kitchen) (fits k1 kitchen vault) (fits k1 vault kitchen) (key-in k1 hall))
  (:goal (at vault)))
