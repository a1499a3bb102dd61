(define (problem keys-p03) (:domain keys-doors)
  (:objects hall kitchen cellar vault - room k1 k2 - key)
  (:init
    (at hall) (door hall kitchen) (door kitchen hall) (unlocked hall kitchen)
    (unlocked kitchen hall) (door kitchen cellar) (door cellar kitchen) (locked kitchen cellar)
    (locked cellar kitchen) (fits k1 kitchen cellar) (fits k1 cellar kitchen) (door cellar vault)
    (door vault cellar) (unlocked cellar vault) (unlocked vault cellar) (key-in k1 hall)
    (key-in k2 cellar))
  (:goal (at vault)))
