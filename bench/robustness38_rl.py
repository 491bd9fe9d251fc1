"""Issue 38: the learning environments' hostile actions and seeds (bench/robustness38.py runs this)."""

# ruff: noqa: E501 -- the case tables keep one case a line

import json
import subprocess
import sys
import gymnasium
import numpy as np
from gridgames.rl import ActionError, aec_env, gym_env

rows = []


def row(label, ok, detail=""):
    rows.append({"label": label, "ok": bool(ok), "detail": str(detail)[:150]})


def refused(make, action):
    env = make()
    try:
        env.step(action)
    except ActionError as error:
        return True, str(error)
    except Exception as error:
        return False, f"{type(error).__name__}: {error}"
    return False, "accepted"


def gym():
    env = gym_env("connect4", opponent="random")
    env.reset(seed=0)
    return env


def aec():
    env = aec_env("connect4")
    env.reset(seed=0)
    return env


for label, action in (
    ("3.5", 3.5),
    ("3.0", 3.0),
    ("'3'", "3"),
    ("None", None),
    ("True", True),
    ("np.float64(2)", np.float64(2.0)),
    ("array([3])", np.array([3])),
    ("-1", -1),
    ("7", 7),
    ("10**30", 10**30),
):
    for name, make in (("gym", gym), ("aec", aec)):
        ok, detail = refused(make, action)
        row(f"{name} step({label})", ok, detail)
env = aec()
env.step(np.int64(3))
env.step(np.array(4))
row("aec: numpy integers are actions", env.agent_selection == "player_0")

env = gym()
over = False
try:
    for _ in range(60):
        env.step(0)
except gymnasium.error.ResetNeeded:
    over = True
row("gym: a step after the end needs reset()", over)
env = aec_env("connect4")
env.reset(seed=0, options={"moves": [0, 0, 0, 0, 0, 0]})
env.step(0)
row("aec: an illegal action ends the game, -1", env.rewards["player_0"] == -1 and all(env.terminations.values()))
for seed in (0, 2**32 - 1, 2**63, None):
    try:
        gym_env("connect4", opponent="random").reset(seed=seed)
        aec_env("connect4").reset(seed=seed)
        ok = True
        detail = ""
    except Exception as error:
        ok, detail = False, f"{type(error).__name__}: {error}"
    row(f"reset(seed={seed})", ok, detail)
code = "from gridgames.rl import aec_env, ActionError\nenv = aec_env('connect4'); env.reset(seed=0)\ntry:\n    env.step(99)\nexcept ActionError:\n    print('refused')\n"
out = subprocess.run([sys.executable, "-O", "-c", code], capture_output=True, text=True, timeout=120)
row("aec step(99) under python -O", out.stdout.strip() == "refused", out.stderr[-100:])
print(json.dumps(rows))
