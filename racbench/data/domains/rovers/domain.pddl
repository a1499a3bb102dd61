;; Rovers: planetary rovers navigate between waypoints, sample soil and rock,
;; calibrate cameras and take images, and send the data to a lander in view.
(define (domain rovers)
  (:requirements :strips :typing)
  (:types rover waypoint store camera mode lander objective)
  (:predicates
    (at ?r - rover ?w - waypoint)
    (lander-at ?l - lander ?w - waypoint)
    (can-traverse ?r - rover ?from - waypoint ?to - waypoint)
    (visible ?w1 - waypoint ?w2 - waypoint)
    (equipped-for-soil-analysis ?r - rover)
    (equipped-for-rock-analysis ?r - rover)
    (equipped-for-imaging ?r - rover)
    (store-of ?s - store ?r - rover)
    (empty ?s - store)
    (full ?s - store)
    (soil-sample-at ?w - waypoint)
    (rock-sample-at ?w - waypoint)
    (have-soil-analysis ?r - rover ?w - waypoint)
    (have-rock-analysis ?r - rover ?w - waypoint)
    (on-board ?c - camera ?r - rover)
    (supports ?c - camera ?m - mode)
    (calibration-target ?c - camera ?o - objective)
    (visible-from ?o - objective ?w - waypoint)
    (calibrated ?c - camera ?r - rover)
    (have-image ?r - rover ?o - objective ?m - mode)
    (communicated-soil-data ?w - waypoint)
    (communicated-rock-data ?w - waypoint)
    (communicated-image-data ?o - objective ?m - mode))

  (:action navigate
    :parameters (?r - rover ?from - waypoint ?to - waypoint)
    :precondition (and (at ?r ?from) (can-traverse ?r ?from ?to) (visible ?from ?to))
    :effect (and (at ?r ?to) (not (at ?r ?from))))

  (:action sample-soil
    :parameters (?r - rover ?s - store ?w - waypoint)
    :precondition (and (at ?r ?w) (soil-sample-at ?w) (equipped-for-soil-analysis ?r)
                       (store-of ?s ?r) (empty ?s))
    :effect (and (full ?s) (have-soil-analysis ?r ?w)
                 (not (empty ?s)) (not (soil-sample-at ?w))))

  (:action sample-rock
    :parameters (?r - rover ?s - store ?w - waypoint)
    :precondition (and (at ?r ?w) (rock-sample-at ?w) (equipped-for-rock-analysis ?r)
                       (store-of ?s ?r) (empty ?s))
    :effect (and (full ?s) (have-rock-analysis ?r ?w)
                 (not (empty ?s)) (not (rock-sample-at ?w))))

  (:action drop
    :parameters (?r - rover ?s - store)
    :precondition (and (store-of ?s ?r) (full ?s))
    :effect (and (empty ?s) (not (full ?s))))

  (:action calibrate
    :parameters (?r - rover ?c - camera ?o - objective ?w - waypoint)
    :precondition (and (equipped-for-imaging ?r) (on-board ?c ?r) (at ?r ?w)
                       (calibration-target ?c ?o) (visible-from ?o ?w))
    :effect (calibrated ?c ?r))

  (:action take-image
    :parameters (?r - rover ?w - waypoint ?o - objective ?c - camera ?m - mode)
    :precondition (and (calibrated ?c ?r) (on-board ?c ?r) (equipped-for-imaging ?r)
                       (supports ?c ?m) (visible-from ?o ?w) (at ?r ?w))
    :effect (and (have-image ?r ?o ?m) (not (calibrated ?c ?r))))

  (:action communicate-soil-data
    :parameters (?r - rover ?l - lander ?sample - waypoint ?from - waypoint ?to - waypoint)
    :precondition (and (at ?r ?from) (lander-at ?l ?to) (visible ?from ?to)
                       (have-soil-analysis ?r ?sample))
    :effect (communicated-soil-data ?sample))

  (:action communicate-rock-data
    :parameters (?r - rover ?l - lander ?sample - waypoint ?from - waypoint ?to - waypoint)
    :precondition (and (at ?r ?from) (lander-at ?l ?to) (visible ?from ?to)
                       (have-rock-analysis ?r ?sample))
    :effect (communicated-rock-data ?sample))

  (:action communicate-image-data
    :parameters (?r - rover ?l - lander ?o - objective ?m - mode ?from - waypoint ?to - waypoint)
    :precondition (and (at ?r ?from) (lander-at ?l ?to) (visible ?from ?to)
                       (have-image ?r ?o ?m))
    :effect (communicated-image-data ?o ?m)))
