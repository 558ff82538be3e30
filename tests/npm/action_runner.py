#!/usr/bin/env python3
"""Runs a composite GitHub Action's steps as a runner does, for tests/npm/registry.sh action.

Reads ACTION_DIR/action.yml; for each step, replaces `${{ inputs.NAME }}` (the value given as
NAME=VALUE, else the input's default), `${{ github.action_path }}` and `${{ steps.ID.outputs.X }}`
in its `env` and `run`, and runs `run` with its `shell` (bash: `bash --noprofile --norc -eo
pipefail`, as the runner does) in WORKDIR, with GITHUB_ACTION_PATH, GITHUB_OUTPUT,
GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and RUNNER_TEMP set. Prints the steps' stdout and stderr
as they come; writes the action's outputs (`outputs.*.value` resolved) as NAME=VALUE lines to
OUT/outputs, the summary to OUT/summary.md; exits with the first failing step's status.

  action_runner.py ACTION_DIR WORKDIR OUT [NAME=VALUE ...]"""
import os
import re
import subprocess
import sys

import yaml


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    action_dir, workdir, out = (os.path.abspath(a) for a in sys.argv[1:4])
    given = dict(a.split("=", 1) for a in sys.argv[4:])
    with open(os.path.join(action_dir, "action.yml")) as f:
        action = yaml.safe_load(f)
    assert action["runs"]["using"] == "composite", "only composite actions"
    inputs = {name: str(spec.get("default", "")) for name, spec in action.get("inputs", {}).items()}
    for name in given:
        if name not in inputs:
            sys.exit("the action has no input %r" % name)
    inputs.update(given)
    os.makedirs(os.path.join(out, "temp"), exist_ok=True)
    summary = os.path.join(out, "summary.md")
    open(summary, "w").close()
    step_outputs = {}

    def expand(text):
        def one(m):
            expr = m.group(1).strip()
            if expr.startswith("inputs."):
                return inputs[expr[len("inputs."):]]
            if expr == "github.action_path":
                return action_dir
            s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", expr)
            if s:
                return step_outputs.get(s.group(1), {}).get(s.group(2), "")
            sys.exit("action_runner: cannot evaluate ${{ %s }}" % expr)
        return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

    status = 0
    for i, step in enumerate(action["runs"]["steps"]):
        output_file = os.path.join(out, "step%d.output" % i)
        open(output_file, "w").close()
        env = dict(os.environ)
        env.update({k: expand(v) for k, v in (step.get("env") or {}).items()})
        env.update({"GITHUB_ACTION_PATH": action_dir, "GITHUB_OUTPUT": output_file,
                    "GITHUB_STEP_SUMMARY": summary, "GITHUB_WORKSPACE": workdir,
                    "RUNNER_TEMP": os.path.join(out, "temp"), "GITHUB_ACTIONS": "true"})
        assert step.get("shell") == "bash", "only bash steps"
        p = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c",
                            expand(step["run"])], cwd=workdir, env=env)
        values = {}
        for line in open(output_file):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                values[k] = v
        step_outputs[step.get("id", str(i))] = values
        if p.returncode != 0:
            status = p.returncode
            break
    with open(os.path.join(out, "outputs"), "w") as f:
        for name, spec in (action.get("outputs") or {}).items():
            f.write("%s=%s\n" % (name, expand(spec["value"])))
    sys.exit(status)


if __name__ == "__main__":
    main()
