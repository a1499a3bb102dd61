(define (problem keys-p04) (:domain keys-doors)
  (:objects hall kitchen cellar vault - room k1 k2 - key)
  (:init
    (at hall) (door hall kitchen) (door kitchen hall) (unlocked hall kitchen)
    (unlocked kitchen hall) (door hall cellar) (door cellar hall) (locked hall cellar)
    (locked cellar hall) (fits k2 hall cellar) (fits k2 cellar hall) (door cellar vault)
    (door vault cellar) (locked cellar vault) (locked vault cellar) (fits k1 cellar vault)
    (fits k1 vault cellar) (key-in k1 kitchen) (key-in k2 hall))
  (:goal (at vault)))
