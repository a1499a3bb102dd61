"""Generated rule worlds read from a manual, in the spirit of SILG's RTFM and Messenger.

grammar.py draws a rule set per episode from a typed grammar (teams, item-beats-element,
roles, movement behaviours) within a split's rule combinations; episode.py is the grid's
dynamics; oracle.py the exact search that wins every kept episode and the baseline that
ignores the manual; text.py the manual and facts in English (templates/rules/); world.py
puts an episode behind the world protocol and makes a split's episodes.
"""
