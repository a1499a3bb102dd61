"""racbench's version, in a module of its own: the data modules stamp it on every row
and card without importing the package facade (racbench/__init__.py), whose API
functions import them in turn. pyproject.toml reads it from here."""

__version__ = "0.1.0"
