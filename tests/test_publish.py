"""`racbench publish` against a local fake of the Hub's HTTP API (tests/hubfake.py): the
real CLI in a subprocess, the real huggingface_hub client reaching the fake through
HF_ENDPOINT, and what the fake received compared with the build file by file.

HF_HUB_DISABLE_XET=1: the fake speaks the HTTP upload protocol (preupload, LFS batch,
NDJSON commit), not the Xet storage protocol hf_xet would use.
"""

import os
import shutil
import subprocess
import sys

import pytest
import yaml

from hubfake import FakeHub
from racbench.export.build import build as build_recipe
from racbench.suites.recipe import load_recipe

RECIPE = """
name: to-publish
seed: 4
license: mit
configs:
  - name: proj
    task: projection
    objects: 4
    splits: {train: 20, validation: 10, test: 10}
  - name: ferry_app_mc
    family: applicability
    domain: ferry
    form: mc
    problems: {train: [p04, p05, p06], test: [p07, p08]}
    splits: {train: 8, test: 4}
"""


def racbench(*args, env=None):
    return subprocess.run([sys.executable, "-m", "racbench.cli", *map(str, args)],
                          capture_output=True, text=True, env=env)


def build(recipe_file, out):
    """A build through the API in this process: these tests are about publish's process,
    not build's (a `racbench build` process paid Python's, racbench's and pyarrow's start)."""
    build_recipe(load_recipe(str(recipe_file)), out, workers=1, progress=False)
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    root = tmp_path_factory.mktemp("publish")
    (root / "recipe.yaml").write_text(RECIPE)
    return build(root / "recipe.yaml", root / "data")


@pytest.fixture
def hub():
    with FakeHub() as fake:
        yield fake


def hub_env(hub, token=None):
    return dict(os.environ, HF_ENDPOINT=hub.url, HF_TOKEN=token or hub.token,
                HF_HUB_DISABLE_XET="1", HF_HUB_DISABLE_TELEMETRY="1", HF_HUB_OFFLINE="0",
                HF_HOME=str(hub.home))


@pytest.fixture(autouse=True)
def hub_home(hub, tmp_path):
    hub.home = tmp_path / "hf_home"  # no stored token or cache of the machine's is read


def folder_files(root):
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file()}


def test_publish_uploads_every_file_of_the_build_and_nothing_else(built, hub):
    proc = racbench("publish", built, "--repo-id", "alice/actions", "--quiet",
                    env=hub_env(hub))
    assert proc.returncode == 0, proc.stderr
    assert f"{hub.url}/datasets/alice/actions" in proc.stdout
    sent = hub.files("alice/actions")
    expected = folder_files(built)
    assert sent == expected  # byte for byte, file by file
    assert {"README.md", "configs.json", "difficulty.png", "answers.png",
            "proj/train-00000-of-00001.parquet"} <= set(sent)
    # the Parquet shards and figures went through LFS, the card and configs.json inline
    lfs = [path for method, path in hub.requests if method == "PUT"]
    assert len(lfs) == sum(1 for name in sent if name.endswith((".parquet", ".png")))
    # the card's front matter was checked by the Hub's validator, as sent
    assert hub.validated and hub.validated[-1]["configs"][0]["config_name"] == "proj"
    assert hub.repos["alice/actions"]["private"] is False


def test_republishing_a_smaller_build_deletes_the_shards_it_no_longer_has(built, hub,
                                                                          tmp_path):
    assert racbench("publish", built, "--repo-id", "alice/actions", "--quiet",
                    env=hub_env(hub)).returncode == 0
    smaller = tmp_path / "smaller"
    (tmp_path / "one.yaml").write_text(RECIPE.split("  - name: ferry_app_mc")[0])
    build(tmp_path / "one.yaml", smaller)
    proc = racbench("publish", smaller, "--repo-id", "alice/actions", "--private", "--quiet",
                    env=hub_env(hub))
    assert proc.returncode == 0, proc.stderr
    assert hub.files("alice/actions") == folder_files(smaller)
    assert len(hub.repos["alice/actions"]["commits"]) == 2


def test_a_wrong_token_is_reported_with_how_to_log_in(built, hub):
    proc = racbench("publish", built, "--repo-id", "alice/actions", "--quiet",
                    env=hub_env(hub, token="hf_wrong"))
    assert proc.returncode == 2
    assert "401" in proc.stderr and "HF_TOKEN" in proc.stderr
    assert "Traceback" not in proc.stderr and not hub.repos


def broken_copies(built, tmp_path):
    """(name, folder, what the message must name) for folders publish must refuse."""
    cases = []

    def copy(name):
        folder = tmp_path / name
        shutil.copytree(built, folder)
        return folder

    folder = copy("user_file")
    (folder / "notes.txt").write_text("mine")
    cases.append((folder, "notes.txt"))
    folder = copy("missing_shard")
    (folder / "proj" / "test-00000-of-00001.parquet").unlink()
    cases.append((folder, "test"))
    folder = copy("missing_details")
    (folder / "configs.json").unlink()
    cases.append((folder, "configs.json"))
    folder = copy("swapped_shard")
    shutil.copy(folder / "proj" / "test-00000-of-00001.parquet",
                folder / "proj" / "train-00000-of-00001.parquet")
    cases.append((folder, "records 20"))
    folder = copy("not_racbench")
    card = (folder / "README.md").read_text()
    front = yaml.safe_load(card.split("---\n")[1])
    front["tags"] = ["other"]
    (folder / "README.md").write_text("---\n" + yaml.safe_dump(front) + "---\n" +
                                      card.split("---\n", 2)[2])
    cases.append((folder, "racbench"))
    folder = copy(".unfinished.partial")
    (folder / "build.json").write_text("{}")
    cases.append((folder, "unfinished"))
    cases.append((tmp_path / "nowhere", "not a folder"))
    return cases


def test_a_folder_that_is_not_a_complete_build_is_refused_before_sending(built, hub,
                                                                         tmp_path):
    for folder, named in broken_copies(built, tmp_path):
        proc = racbench("publish", folder, "--repo-id", "alice/actions", "--quiet",
                        env=hub_env(hub))
        assert proc.returncode == 2, (folder.name, proc.stderr)
        assert named in proc.stderr and "Traceback" not in proc.stderr, (folder.name,
                                                                         proc.stderr)
    assert hub.requests == []  # nothing was sent


def test_offline_mode_is_named_instead_of_a_traceback(built, hub):
    proc = racbench("publish", built, "--repo-id", "alice/actions", "--quiet",
                    env=dict(hub_env(hub), HF_HUB_OFFLINE="1"))
    assert proc.returncode == 2 and "HF_HUB_OFFLINE" in proc.stderr
    assert "Traceback" not in proc.stderr and hub.requests == []


@pytest.mark.parametrize("repo_id", ["actions", "alice/", "alice/act ions", "a/b/c",
                                     "alice/-x", "alice/x--y", "alice/x.git", "/x"])
def test_a_bad_repo_id_is_refused_naming_the_accepted_form(built, hub, repo_id):
    proc = racbench("publish", built, "--repo-id", repo_id, env=hub_env(hub))
    assert proc.returncode == 2
    assert "USER/NAME" in proc.stderr and "Traceback" not in proc.stderr
    assert hub.requests == []
