"""`racbench publish DIR --repo-id USER/NAME`: a built dataset folder to the Hugging Face Hub.

Only a complete racbench build is sent: its card (with the `racbench` tag and a
`configs:` entry for every config folder), configs.json, the figures, and every split's
whole run of shards with the row count the card records; a folder holding anything else
(an unfinished `.partial` build, a user's file, a missing or extra shard) is refused
before anything is sent, naming what is wrong. The upload is one `huggingface_hub`
`upload_folder` of exactly those files into a dataset repo (created if needed); shards,
figures and configs.json a previous publish left in the repo and this build has not are
deleted in the same commit, since the card's `configs:` names shards by pattern and a
stale one would be loaded. The token comes from where huggingface_hub looks (HF_TOKEN,
the token `hf auth login` stored), or `token=`.
"""

from __future__ import annotations

import os
import re
import socket
from dataclasses import dataclass
from pathlib import Path

from racbench.errors import InputError
from racbench.export.details import CONFIGS_FILE
from racbench.export.folder import CARD, MANIFEST, SHARD, TAG, card_front_matter, foreign_entries
from racbench.export.layout import num_rows
from racbench.export.plots import PLOTS
from racbench.text import sayer

REPO_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*/[A-Za-z0-9][A-Za-z0-9._-]*")
# what a previous publish of a racbench build may have left that this one replaces
STALE = ["*/*.parquet", CONFIGS_FILE, *PLOTS]
_say = sayer("cli", ("publish.j2",))


class PublishError(InputError):
    """A folder or repo id that `publish` refuses, or an upload the Hub refused."""


@dataclass(frozen=True)
class Published:
    repo_id: str
    url: str
    commit: str
    files: int


def build_files(folder: Path) -> list[str]:
    """The files of a complete racbench build in `folder`, relative to it, sorted;
    raises PublishError naming what makes it incomplete."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PublishError(_say("not_a_folder", folder=folder))
    if (folder / MANIFEST).exists():
        raise PublishError(_say("unfinished", folder=folder))
    front = card_front_matter(folder)
    if front is None or TAG not in (front.get("tags") or []):
        raise PublishError(_say("no_card", folder=folder, card=CARD))
    configs = [c for c in front.get("configs") or [] if isinstance(c, dict)]
    if not configs:
        raise PublishError(_say("no_configs", folder=folder, card=CARD))
    foreign = foreign_entries(folder)
    if foreign:
        raise PublishError(_say("foreign", folder=folder, names=foreign[:5],
                                more=len(foreign) > 5))
    if not (folder / CONFIGS_FILE).is_file():
        raise PublishError(_say("missing", folder=folder, name=CONFIGS_FILE))
    sizes = {str(info.get("config_name")): {str(s.get("name")): s.get("num_examples")
                                             for s in info.get("splits") or []}
             for info in front.get("dataset_info") or [] if isinstance(info, dict)}
    files = [CARD, CONFIGS_FILE] + [p for p in PLOTS if (folder / p).is_file()]
    for config in configs:
        name = str(config.get("config_name"))
        for split in sorted({str(f.get("split")) for f in config.get("data_files") or []}):
            shards = sorted(p.name for p in (folder / name).glob(f"{split}-*.parquet")
                            if SHARD.fullmatch(p.name))
            if not shards:
                raise PublishError(_say("no_shards", folder=folder, config=name, split=split))
            rows = sum(num_rows(folder / name / s) for s in shards)
            wanted = sizes.get(name, {}).get(split)
            if rows != wanted:
                raise PublishError(_say("row_count", folder=folder, config=name, split=split,
                                        rows=rows, wanted=wanted, card=CARD))
            files += [f"{name}/{s}" for s in shards]
    listed = {str(c.get("config_name")) for c in configs}
    unlisted = sorted(p.name for p in folder.iterdir() if p.is_dir() and p.name not in listed)
    if unlisted:
        raise PublishError(_say("unlisted", folder=folder, names=unlisted, card=CARD))
    return sorted(files)


def check_repo_id(repo_id: str, option: str = "--repo-id") -> str:
    if not isinstance(repo_id, str) or not REPO_ID.fullmatch(repo_id) or len(repo_id) > 96 \
            or "--" in repo_id or ".." in repo_id or repo_id.endswith((".", "-", ".git")):
        raise PublishError(_say("bad_repo_id", repo_id=repo_id, option=option))
    return repo_id


def _unreachable(exc: BaseException) -> bool:
    """Did the upload fail for want of a connection (refused, no route, name not
    resolved, timed out)? huggingface_hub's HTTP client raises its own transport errors
    (httpx's, or requests' in older releases), which subclass no exception of ours."""
    if isinstance(exc, (ConnectionError, TimeoutError, socket.gaierror)):
        return True
    return any(cls.__name__ in ("TransportError", "RequestError", "ConnectionError", "Timeout")
               and cls.__module__.split(".")[0] in ("httpx", "httpx2", "httpcore", "requests",
                                                     "urllib3")
               for cls in type(exc).__mro__)


def publish(folder: Path, repo_id: str, *, private: bool = False, token: str | None = None,
            message: str | None = None) -> Published:
    """Upload the complete build in `folder` to the dataset repo `repo_id`; see the
    module's text. Raises PublishError before sending anything for a folder or id we
    refuse, and for an upload the Hub refuses."""
    check_repo_id(repo_id)
    files = build_files(folder)
    from huggingface_hub import HfApi
    from huggingface_hub.errors import HfHubHTTPError, OfflineModeIsEnabled

    api = HfApi(token=token)
    try:
        api.create_repo(repo_id, repo_type="dataset", private=private, exist_ok=True)
        commit = api.upload_folder(
            folder_path=str(folder), repo_id=repo_id, repo_type="dataset",
            allow_patterns=files, delete_patterns=STALE,
            commit_message=message or _say("commit_message", files=len(files)))
    except OfflineModeIsEnabled:
        raise PublishError(_say("offline", repo_id=repo_id)) from None
    except HfHubHTTPError as exc:
        status = getattr(exc.response, "status_code", None)
        raise PublishError(_say("hub_refused", repo_id=repo_id, status=status,
                                reason=str(exc).splitlines()[0])) from None
    except Exception as exc:  # noqa: BLE001 - the HTTP client's own classes vary by version
        if not _unreachable(exc):
            raise
        raise PublishError(_say("unreachable", repo_id=repo_id, endpoint=api.endpoint,
                                reason=" ".join(str(exc).split()) or type(exc).__name__,
                                endpoint_set=bool(os.environ.get("HF_ENDPOINT")))) from None
    return Published(repo_id, f"{api.endpoint}/datasets/{repo_id}",
                     getattr(commit, "oid", None) or "", len(files))
