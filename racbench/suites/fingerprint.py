"""A config's fingerprint: one digest of everything its rows' bytes depend on.

An unfinished build keeps each config it finished under that config's fingerprint; a
rerun keeps a finished config exactly when its fingerprint is unchanged, and builds the
others. A config's rows depend on (seed, config, split, index) alone (build.py), so the
fingerprint covers: the config's name, description and resolved task (every knob,
defaults filled in), its splits' sizes after --scale, the seed, the PDDL limits in
force (a search budget changes which questions are dropped and drawn again), the bytes
of every file the config names (a domain file, its problem files, a phrasing file), and
racbench itself: its version and the bytes of its code, templates and shipped data
(domains, science tables, vocabularies), so no edit to how rows are made or phrased
keeps a stale config.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

from racbench.version import __version__
from racbench.worlds.strips import limits

_SKIPPED_DIRS = frozenset({"__pycache__"})


@lru_cache(maxsize=1)
def code_digest() -> str:
    """racbench's version and the bytes of every file of its package (code, templates,
    shipped data), walked in sorted order."""
    root = Path(__file__).resolve().parents[1]  # the racbench package
    digest = hashlib.blake2b(__version__.encode(), digest_size=16)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIPPED_DIRS)
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")):
                continue
            path = Path(folder) / name
            digest.update(str(path.relative_to(root)).encode() + b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def _named_files(value) -> list[tuple[str, str]]:
    """(path, digest of its bytes) of every string in a task's fields that names a file,
    in field order."""
    found: list[tuple[str, str]] = []
    if isinstance(value, str):
        if value and os.path.isfile(value):
            try:
                data = Path(value).read_bytes()
            except OSError:  # unreadable: the probe refuses it with its own message
                data = b""
            found.append((value, hashlib.blake2b(data, digest_size=16).hexdigest()))
    elif isinstance(value, dict):
        for k, v in value.items():
            found += _named_files(k) + _named_files(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found += _named_files(v)
    return found


def config_fingerprint(spec, seed: int) -> str:
    """The fingerprint of the ConfigSpec `spec` (splits as built, i.e. after --scale)
    built with `seed`; see the module's text."""
    task = spec.task
    fields = dataclasses.asdict(task) if dataclasses.is_dataclass(task) else vars(task)
    text = json.dumps([spec.name, spec.description, type(task).__name__, repr(task),
                       list(spec.splits.items()), seed,
                       dataclasses.asdict(limits.current()), _named_files(fields),
                       code_digest()])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()
