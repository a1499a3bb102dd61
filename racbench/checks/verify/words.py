"""Every sentence `racbench verify` prints or stores, by name: the macros of
templates/cli/verify.j2 through the one message mechanism, `racbench.text.sayer` (a
damaged shard is said by export/layout.py, in every command's words)."""

from racbench.text import sayer

say = sayer("cli", ("verify.j2",))


def unusable(exc: BaseException, replayed: bool = False) -> str:
    """Why a row's symbolic JSON cannot be checked (or replayed): a field it lacks
    (a KeyError) or what was wrong with it; a replay's reason on one line, cut at 160
    characters."""
    what = str(exc)
    if replayed:
        what = " ".join(what.split())[:146 if isinstance(exc, KeyError) else 160]
    if isinstance(exc, KeyError):
        return say("symbolic_unusable", replayed=replayed, missing=what, reason="")
    return say("symbolic_unusable", replayed=replayed, missing=None, reason=what)
