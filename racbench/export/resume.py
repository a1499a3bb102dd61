"""What an unfinished build keeps for a rerun: finished configs, each under its fingerprint.

`.<out>.partial/` holds a folder of shards per finished config and, in `.state/`, a log of
the configs finished (`finished.jsonl`): a line per config, appended once its folder is in
place (the line marks it finished), with its fingerprint (suites/fingerprint.py), its
statistics and its problem keys (for the card's cross-config check). One file, not three
a config: a build deletes its state once done, and on a disk that discards the blocks it
frees each file deleted cost about 3.5 ms (acp's 412 configs: 5.8 s at the end of the
build). A config probed but not yet built keeps its probe result
(`NAME.probe-FINGERPRINT`, pickled, as the engine ships it to Ray workers), so a rerun
after a refusal does not survey again what it surveyed; the probe goes once the config
is finished. A rerun keeps a finished config, or a probe, exactly when the config of
that name has the same fingerprint now, and clears everything else before it writes,
so nothing of an earlier recipe, seed or scale leaks into the result.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
from pathlib import Path

from racbench.export.folder import MANIFEST

STATE = ".state"
FINISHED = "finished.jsonl"  # in STATE: the log of finished configs


def state_file(partial: Path, name: str, kind: str) -> Path:
    """`kind`: a probe's, `probe-FINGERPRINT`."""
    return partial / STATE / f"{name}.{kind}"


def record_finished(partial: Path, name: str, fingerprint: str, stats: dict,
                    keys: dict[str, list[str]]) -> None:
    """Append a finished config's line to the log. A line cut short (a Ctrl-C while it
    was written) does not read back, so its config is built again; each line starts on
    a line of its own, so one cut short never swallows the next."""
    line = json.dumps({"name": name, "fingerprint": fingerprint, "stats": stats,
                       "keys": keys}, sort_keys=True)
    with open(partial / STATE / FINISHED, "a", encoding="utf-8") as log:
        log.write(f"\n{line}\n")


def finished_records(partial: Path) -> dict[str, dict]:
    """The log's records by config name (a config finished twice: its last line), each
    {"name", "fingerprint", "stats", "keys"}; lines that do not read back as one (cut
    short, damaged) are left out, and no log is no record."""
    try:
        text = (partial / STATE / FINISHED).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    records = {}
    for line in text.splitlines():
        try:
            record = json.loads(line) if line else None
        except ValueError:
            continue
        if (isinstance(record, dict) and isinstance(record.get("name"), str)
                and isinstance(record.get("fingerprint"), str)
                and isinstance(record.get("stats"), dict)
                and isinstance(record.get("keys"), dict)):
            records[record["name"]] = record
    return records


def kept_configs(partial: Path, fingerprints: dict[str, str]) -> set[str]:
    """The configs (of `fingerprints`: name -> fingerprint now) that an unfinished build
    in `partial` finished with the same fingerprint. Reads only."""
    records = finished_records(partial)
    return {name for name, fingerprint in fingerprints.items()
            if name in records and records[name]["fingerprint"] == fingerprint
            and (partial / name).is_dir()}


def changed_configs(partial: Path, fingerprints: dict[str, str], kept: set[str]) -> list[str]:
    """The configs of `fingerprints` an unfinished build finished under another
    fingerprint (their recipe entry, a file they name or racbench changed since)."""
    records = finished_records(partial)
    return [name for name in fingerprints if name not in kept and name in records]


def keep_finished(partial: Path, kept: set[str], todo: dict[str, str]) -> None:
    """Delete from `partial` everything but its manifest, the `kept` configs' folders
    and records, and the probes of the configs `todo` (name -> fingerprint now)."""
    records = finished_records(partial)
    for entry in partial.iterdir():
        if entry.name == MANIFEST or entry.name in kept and entry.is_dir():
            continue
        if entry.name == STATE and entry.is_dir() and not entry.is_symlink():
            for item in entry.iterdir():
                name, _, kind = item.name.partition(".")
                if not (name in todo and kind == f"probe-{todo[name]}"):
                    _remove(item)
            log = "".join(f"\n{json.dumps(records[name], sort_keys=True)}\n"
                          for name in sorted(kept))
            tmp = entry / f"{FINISHED}.tmp"
            tmp.write_text(log, "utf-8")
            os.replace(tmp, entry / FINISHED)
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
