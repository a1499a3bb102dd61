;; Logistics: packages move between locations by truck (within a city)
;; and by airplane (between airports of different cities).
(define (domain logistics)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types
    truck airplane - vehicle
    package vehicle - mobile
    airport - location
    city)
  (:predicates
    (at ?m - mobile ?l - location)
    (in ?p - package ?v - vehicle)
    (in-city ?l - location ?c - city))

  (:action load-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (at ?p ?l))
    :effect (and (in ?p ?t) (not (at ?p ?l))))

  (:action unload-truck
    :parameters (?p - package ?t - truck ?l - location)
    :precondition (and (at ?t ?l) (in ?p ?t))
    :effect (and (at ?p ?l) (not (in ?p ?t))))

  (:action load-airplane
    :parameters (?p - package ?a - airplane ?l - airport)
    :precondition (and (at ?a ?l) (at ?p ?l))
    :effect (and (in ?p ?a) (not (at ?p ?l))))

  (:action unload-airplane
    :parameters (?p - package ?a - airplane ?l - airport)
    :precondition (and (at ?a ?l) (in ?p ?a))
    :effect (and (at ?p ?l) (not (in ?p ?a))))

  (:action drive-truck
    :parameters (?t - truck ?from - location ?to - location ?c - city)
    :precondition (and (at ?t ?from) (in-city ?from ?c) (in-city ?to ?c)
                       (not (= ?from ?to)))
    :effect (and (at ?t ?to) (not (at ?t ?from))))

  (:action fly-airplane
    :parameters (?a - airplane ?from - airport ?to - airport)
    :precondition (and (at ?a ?from) (not (= ?from ?to)))
    :effect (and (at ?a ?to) (not (at ?a ?from)))))
