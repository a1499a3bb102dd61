"""How users reach the environments, each in a fresh interpreter as a user's script starts."""

from __future__ import annotations

import subprocess
import sys


def run(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_importing_racbench_or_its_cli_does_not_import_gymnasium():
    assert run("import sys, racbench, racbench.cli; print('gymnasium' in sys.modules)") == "False\n"


def test_the_id_may_name_the_module_that_registers_it():
    out = run("import gymnasium\n"
              "env = gymnasium.make('racbench.envs:racbench/science-boil-v0', variation=2)\n"
              "print(env.reset()[1]['goal'].split('.')[0])\n"
              "env = gymnasium.make('racbench.envs:racbench/strips-v0', domain='ferry', "
              "problem='p01')\n"
              "print(env.unwrapped.task.domain_name)")
    assert out == "Your task is to boil water\nferry\n"


def test_importing_racbench_envs_registers_every_id():
    out = run("import gymnasium, racbench.envs\n"
              "print(*sorted(i for i in gymnasium.registry if i.startswith('racbench/')))")
    ids = out.split()
    from racbench.worlds.science import TASKS
    assert "racbench/strips-v0" in ids and "racbench/science-boil-v0" in ids
    assert ids == sorted(["racbench/strips-v0", "racbench/rules-v0"]
                         + [f"racbench/science-{t}-v0" for t in TASKS])
