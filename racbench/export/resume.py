"""What an unfinished build keeps for a rerun: finished configs, each under its fingerprint.

`.<out>.partial/` holds a folder of shards per finished config and, in `.state/`, its
statistics (`NAME.stats.json`, written last: it marks the config finished), its problem
keys (`NAME.keys.json`, for the card's cross-config check) and its fingerprint
(`NAME.fingerprint`, suites/fingerprint.py). A config probed but not yet built keeps its
probe result (`NAME.probe-FINGERPRINT`, pickled, as the engine ships it to Ray workers),
so a rerun after a refusal does not survey again what it surveyed. A rerun keeps a
finished config, or a probe, exactly when the config of that name has the same
fingerprint now, and clears everything else before it writes, so nothing of an earlier
recipe, seed or scale leaks into the result.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

from racbench.export.folder import MANIFEST

STATE = ".state"


def state_file(partial: Path, name: str, kind: str) -> Path:
    """`kind`: stats.json, keys.json or fingerprint."""
    return partial / STATE / f"{name}.{kind}"


def write_state(partial: Path, name: str, kind: str, text: str) -> None:
    """A state file written whole or not at all (a temporary file renamed into place):
    a Ctrl-C while NAME.stats.json was being written once left it empty, a config
    finished in name whose statistics a rerun could not read."""
    path = state_file(partial, name, kind)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, "utf-8")
    os.replace(tmp, path)


def _finished(partial: Path, name: str) -> bool:
    """Whether a config's statistics, which mark it finished, are there and read back
    (one damaged, by an earlier racbench or the disk, is a config to build again)."""
    try:
        json.loads(state_file(partial, name, "stats.json").read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return True


def kept_configs(partial: Path, fingerprints: dict[str, str]) -> set[str]:
    """The configs (of `fingerprints`: name -> fingerprint now) that an unfinished build
    in `partial` finished with the same fingerprint. Reads only."""
    kept = set()
    for name, fingerprint in fingerprints.items():
        try:
            recorded = state_file(partial, name, "fingerprint").read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if (recorded == fingerprint and _finished(partial, name)
                and state_file(partial, name, "keys.json").is_file()
                and (partial / name).is_dir()):
            kept.add(name)
    return kept


def changed_configs(partial: Path, fingerprints: dict[str, str], kept: set[str]) -> list[str]:
    """The configs of `fingerprints` an unfinished build finished under another
    fingerprint (their recipe entry, a file they name or racbench changed since)."""
    return [name for name in fingerprints if name not in kept and _finished(partial, name)]


def keep_finished(partial: Path, kept: set[str], todo: dict[str, str]) -> None:
    """Delete from `partial` everything but its manifest, the `kept` configs' folders
    and state files, and the probes of the configs `todo` (name -> fingerprint now)."""
    for entry in partial.iterdir():
        if entry.name == MANIFEST or entry.name in kept and entry.is_dir():
            continue
        if entry.name == STATE and entry.is_dir() and not entry.is_symlink():
            for item in entry.iterdir():
                name, _, kind = item.name.partition(".")
                if not (name in kept and kind in ("stats.json", "keys.json", "fingerprint")
                        or name in todo and kind == f"probe-{todo[name]}"):
                    _remove(item)
            continue
        _remove(entry)


class ProbeCache:
    """The probe results an unfinished build in `partial` keeps, for configs of the
    fingerprints given (name -> fingerprint now)."""

    def __init__(self, partial: Path, fingerprints: dict[str, str]):
        self.partial, self.fingerprints = partial, fingerprints

    def _path(self, name: str) -> Path:
        return state_file(self.partial, name, f"probe-{self.fingerprints[name]}")

    def has(self, name: str) -> bool:
        return self._path(name).is_file()

    def get(self, name: str) -> tuple[bool, object]:
        """(True, the probe result kept), or (False, None) if none is kept or it cannot
        be read back (then the config is probed again)."""
        try:
            with open(self._path(name), "rb") as handle:
                return True, pickle.load(handle)
        except Exception:  # noqa: BLE001 (a damaged file is a probe to make again)
            return False, None

    def put(self, name: str, result) -> None:
        path = self._path(name)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            pickle.dump(result, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)

    def drop(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)

    def saved(self) -> int:
        """How many probes the partial keeps now."""
        try:
            return sum(1 for p in (self.partial / STATE).iterdir()
                       if p.name.partition(".")[2].startswith("probe-")
                       and not p.name.endswith(".tmp"))
        except OSError:
            return 0


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()
