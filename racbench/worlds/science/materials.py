"""Materials: physical constants and the state of matter they imply at a temperature."""

from __future__ import annotations

from dataclasses import dataclass

from racbench.worlds.science.data import load

SOLID, LIQUID, GAS = "solid", "liquid", "gas"


@dataclass(frozen=True)
class Material:
    name: str
    melting: float | None
    boiling: float | None
    combustion: float | None
    thermal: float
    conductive: bool
    names: dict

    def state_at(self, temp: float) -> str:
        """State of matter at `temp`; a missing transition point never triggers."""
        if self.boiling is not None and temp >= self.boiling:
            return GAS
        if self.melting is not None and temp >= self.melting:
            return LIQUID
        return SOLID


_TABLE: dict[str, Material] = {}


def material(name: str) -> Material:
    """Look a material up by name (cached); unknown-substance materials are registered at run time."""
    found = _TABLE.get(name)
    if found is None:
        row = load("materials")[name]
        found = Material(name, row["melting"], row["boiling"], row["combustion"], row["thermal"],
                         row["conductive"], row["names"])
        _TABLE[name] = found
    return found

