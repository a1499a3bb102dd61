"""The only door to English: every sentence comes from a jinja2 macro under templates/science/."""

from racbench.text import sayer

say = sayer("science", ("look.j2", "responses.j2", "tasks.j2", "errors.j2"))
