"""What an unfinished build keeps for a rerun: finished configs, each under its fingerprint.

`.<out>.partial/` holds a folder of shards per finished config and, in `.state/`, its
statistics (`NAME.stats.json`, written last: it marks the config finished), its problem
keys (`NAME.keys.json`, for the card's cross-config check) and its fingerprint
(`NAME.fingerprint`, suites/fingerprint.py). A rerun keeps a finished config exactly
when the config of that name has the same fingerprint now, and clears everything else
before it writes, so nothing of an earlier recipe, seed or scale leaks into the result.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from racbench.export.folder import MANIFEST

STATE = ".state"


def state_file(partial: Path, name: str, kind: str) -> Path:
    """`kind`: stats.json, keys.json or fingerprint."""
    return partial / STATE / f"{name}.{kind}"


def kept_configs(partial: Path, fingerprints: dict[str, str]) -> set[str]:
    """The configs (of `fingerprints`: name -> fingerprint now) that an unfinished build
    in `partial` finished with the same fingerprint. Reads only."""
    kept = set()
    for name, fingerprint in fingerprints.items():
        try:
            recorded = state_file(partial, name, "fingerprint").read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if (recorded == fingerprint and state_file(partial, name, "stats.json").is_file()
                and state_file(partial, name, "keys.json").is_file()
                and (partial / name).is_dir()):
            kept.add(name)
    return kept


def changed_configs(partial: Path, fingerprints: dict[str, str], kept: set[str]) -> list[str]:
    """The configs of `fingerprints` an unfinished build finished under another
    fingerprint (their recipe entry, a file they name or racbench changed since)."""
    return [name for name in fingerprints if name not in kept
            and state_file(partial, name, "stats.json").is_file()]


def keep_finished(partial: Path, kept: set[str]) -> None:
    """Delete from `partial` everything but its manifest and the `kept` configs' folders
    and state files."""
    for entry in partial.iterdir():
        if entry.name == MANIFEST or entry.name in kept and entry.is_dir():
            continue
        if entry.name == STATE and entry.is_dir() and not entry.is_symlink():
            for item in entry.iterdir():
                name, _, kind = item.name.partition(".")
                if name not in kept or kind not in ("stats.json", "keys.json", "fingerprint"):
                    _remove(item)
            continue
        _remove(entry)


def record_fingerprint(partial: Path, name: str, fingerprint: str) -> None:
    state_file(partial, name, "fingerprint").write_text(fingerprint, "utf-8")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
