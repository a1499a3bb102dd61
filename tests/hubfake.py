"""A local fake of the Hugging Face Hub's HTTP API, enough for huggingface_hub to create
a dataset repo and upload a folder to it: a real HTTP server on 127.0.0.1 in a thread,
which huggingface_hub reaches through HF_ENDPOINT, and which keeps what it was sent.

It speaks the upload protocol huggingface_hub uses without hf_xet (HF_HUB_DISABLE_XET=1):
create repo, preupload (small text files go inline in the commit, Parquet and PNG files
through LFS), the LFS batch API and a basic PUT of each object (its sha256 checked), the
NDJSON commit, the card's YAML check, and the tree listing that `delete_patterns` reads. Every request must
carry the token it was given; anything it does not know answers 404, so a client
speaking another protocol fails instead of passing.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import yaml

LFS_SUFFIXES = (".parquet", ".png")


class FakeHub:
    def __init__(self, token: str = "hf_fake_token_for_tests"):
        self.token = token
        self.repos: dict[str, dict] = {}  # repo_id -> {"private", "files": {path: bytes}, "commits"}
        self.objects: dict[str, bytes] = {}  # LFS objects by sha256
        self.requests: list[tuple[str, str]] = []
        self.validated: list[dict] = []  # card front matters sent to validate-yaml
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "FakeHub":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def files(self, repo_id: str) -> dict[str, bytes]:
        return dict(self.repos[repo_id]["files"])


def _handler(hub: FakeHub):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _send(self, code: int, body=None, headers: dict | None = None) -> None:
            data = b"" if body is None else json.dumps(body).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def _body(self) -> bytes:
            n = int(self.headers.get("Content-Length") or 0)
            if n:
                return self.rfile.read(n)
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                out = b""
                while True:
                    size = int(self.rfile.readline().strip() or b"0", 16)
                    if size == 0:
                        self.rfile.readline()
                        return out
                    out += self.rfile.read(size)
                    self.rfile.readline()
            return b""

        def _authorised(self) -> bool:
            if self.headers.get("Authorization") == f"Bearer {hub.token}":
                return True
            self._send(401, {"error": "Invalid credentials in Authorization header"},
                       {"X-Error-Code": "Unauthorized"})
            return False

        def _route(self, method: str) -> None:
            path = self.path.split("?", 1)[0]
            hub.requests.append((method, path))
            body = self._body()
            if path.startswith("/lfs-upload/") and method == "PUT":
                oid = path.rsplit("/", 1)[1]
                if hashlib.sha256(body).hexdigest() != oid:
                    return self._send(400, {"error": "sha256 mismatch"})
                hub.objects[oid] = body
                return self._send(200, {})
            if not self._authorised():
                return None
            if path == "/api/repos/create" and method == "POST":
                return self._create(json.loads(body))
            if path == "/api/validate-yaml" and method == "POST":
                return self._validate_yaml(json.loads(body))
            m = re.fullmatch(r"/datasets/(.+)\.git/info/lfs/objects/batch", path)
            if m and method == "POST":
                return self._lfs_batch(m.group(1), json.loads(body))
            m = re.fullmatch(r"/api/datasets/([^/]+/[^/]+)/(preupload|commit|tree|revision)"
                             r"/([^/]+)(/.*)?", path)
            if m and m.group(1) in hub.repos:
                repo, action = m.group(1), m.group(2)
                if action == "preupload" and method == "POST":
                    return self._preupload(json.loads(body))
                if action == "commit" and method == "POST":
                    return self._commit(repo, body)
                if action == "tree" and method == "GET":
                    return self._tree(repo, (m.group(4) or "").strip("/"))
                if action == "revision" and method == "GET":
                    return self._info(repo)
            m = re.fullmatch(r"/api/datasets/([^/]+/[^/]+)", path)
            if m and m.group(1) in hub.repos and method == "GET":
                return self._info(m.group(1))
            return self._send(404, {"error": f"{method} {path}: not in the fake"},
                              {"X-Error-Code": "RepoNotFound"})

        def do_GET(self):
            self._route("GET")

        def do_POST(self):
            self._route("POST")

        def do_PUT(self):
            self._route("PUT")

        def _create(self, data: dict) -> None:
            if data.get("type") != "dataset":
                return self._send(400, {"error": "the fake holds dataset repos only"})
            repo = f"{data.get('organization') or 'user'}/{data['name']}"
            if repo in hub.repos:
                return self._send(409, {"error": "You already created this dataset repo",
                                        "url": f"{hub.url}/datasets/{repo}"})
            hub.repos[repo] = {"private": bool(data.get("private")), "files": {},
                               "commits": []}
            return self._send(200, {"url": f"{hub.url}/datasets/{repo}", "name": repo})

        def _validate_yaml(self, data: dict) -> None:
            """The card's front matter must be a YAML mapping with the Hub's `configs`."""
            text = data.get("content", "")
            try:
                front = yaml.safe_load(text.split("---\n")[1]) if text.startswith("---\n") else None
            except yaml.YAMLError as exc:
                return self._send(400, {"errors": [{"message": str(exc)}]})
            if not isinstance(front, dict) or not isinstance(front.get("configs"), list):
                return self._send(400, {"errors": [{"message": "no configs in the metadata"}]})
            hub.validated.append(front)
            return self._send(200, {"errors": [], "warnings": []})

        def _preupload(self, data: dict) -> None:
            files = [{"path": f["path"], "shouldIgnore": False,
                      "uploadMode": "lfs" if f["path"].endswith(LFS_SUFFIXES) else "regular"}
                     for f in data["files"]]
            return self._send(200, {"files": files, "commitOid": "0" * 40})

        def _lfs_batch(self, repo: str, data: dict) -> None:
            out = []
            for obj in data["objects"]:
                entry = {"oid": obj["oid"], "size": obj["size"]}
                if obj["oid"] not in hub.objects:
                    entry["actions"] = {"upload": {"href": f"{hub.url}/lfs-upload/{obj['oid']}"}}
                out.append(entry)
            return self._send(200, {"transfer": "basic", "objects": out})

        def _commit(self, repo: str, body: bytes) -> None:
            files = dict(hub.repos[repo]["files"])
            header = None
            for line in body.decode().splitlines():
                item = json.loads(line)
                key, value = item["key"], item["value"]
                if key == "header":
                    header = value
                elif key == "file":
                    files[value["path"]] = base64.b64decode(value["content"])
                elif key == "lfsFile":
                    if value["oid"] not in hub.objects:
                        return self._send(400, {"error": f"LFS object of {value['path']} "
                                                         "was never uploaded"})
                    files[value["path"]] = hub.objects[value["oid"]]
                elif key == "deletedFile":
                    files.pop(value["path"], None)
                else:
                    return self._send(400, {"error": f"unknown commit key {key}"})
            if header is None:
                return self._send(400, {"error": "no commit header"})
            oid = hashlib.sha1(body).hexdigest()
            hub.repos[repo]["files"] = files
            hub.repos[repo]["commits"].append((header.get("summary"), oid))
            return self._send(200, {"commitUrl": f"{hub.url}/datasets/{repo}/commit/{oid}",
                                    "commitOid": oid, "pullRequestUrl": None})

        def _tree(self, repo: str, under: str) -> None:
            files = hub.repos[repo]["files"]
            return self._send(200, [{"type": "file", "path": p, "size": len(b),
                                     "oid": hashlib.sha1(b).hexdigest()}
                                    for p, b in sorted(files.items())
                                    if not under or p.startswith(under + "/")])

        def _info(self, repo: str) -> None:
            commits = hub.repos[repo]["commits"]
            return self._send(200, {"id": repo, "private": hub.repos[repo]["private"],
                                    "sha": commits[-1][1] if commits else "0" * 40,
                                    "siblings": [{"rfilename": p}
                                                 for p in sorted(hub.repos[repo]["files"])]})

    return Handler
