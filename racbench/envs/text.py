"""The environments' own sentences: every one comes from a macro under templates/envs/."""

from racbench.text import sayer

say = sayer("envs", ("strips.j2", "play.j2", "errors.j2", "rules.j2"))
