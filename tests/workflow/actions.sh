#!/usr/bin/env bash
# actions.sh - docs/ci/github-actions.yml works as written: its steps are read
# with python3-yaml and run here the way the runner runs them in the job's
# debian:12 container (each `run:` with bash -eo pipefail in the workspace;
# GITHUB_ENV, GITHUB_PATH and GITHUB_OUTPUT honoured; `${{ steps.ID.outputs.K }}`
# substituted; a step without `if: always()` skipped after a failure).  The
# two `uses:` steps are stood in for: actions/checkout copies a scratch
# project into the workspace, upload-sarif checks the file it would upload
# is SARIF 2.1.0.  CGLINT_REPO and CGLINT_REF, which the user sets, point at a
# scratch clone of this source tree.  The build step (scripts/bootstrap
# --no-tests, a full build of cglint) runs once; two more projects run the
# other steps with its result:
#   hazards   the job fails on findings, the SARIF is uploaded, and the
#             annotations made from it are those `cglint --format github` prints
#   clean     the job passes, an empty SARIF is uploaded, no annotations
#   broken    an input that cannot be analysed (not UTF-8: exit 2) fails the analysis
#             step; the upload and the annotations still run
. "$(dirname "$0")/lib.sh"

PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
if ! "$PY" -c 'import yaml' 2>/dev/null; then
    echo "python3-yaml is not installed: skipped"
    exit 77
fi
if ! git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    echo "$SRC is not a git checkout: skipped"
    exit 77
fi
. /etc/os-release
echo "# this machine: $PRETTY_NAME (the workflow's container is debian:12)"

# the cglint repository the workflow clones: this tree as it is now
REPO=$TMP/cglint-repo
mkdir -p "$REPO"
(cd "$SRC" && git ls-files -z -co --exclude-standard | tar --null -T - --ignore-failed-read -cf - 2>/dev/null) |
    tar -C "$REPO" -xf -
(cd "$REPO" && git init -q . && git add -A && git -c user.name=t -c user.email=t@example.com commit -qm tree)

# the projects actions/checkout brings in
mkdir -p "$TMP/projects/hazards/src" "$TMP/projects/clean/src" "$TMP/projects/broken/src"
make_project "$TMP/projects/hazards/src"
printf 'def scale(x):\n    return x * 2\n' >"$TMP/projects/clean/src/ok.py"
make_project "$TMP/projects/broken/src"
printf 'x = "\xff"\n' >"$TMP/projects/broken/src/latin1.py"   # not UTF-8: exit 2

has() { if grep -qF -- "$2" <<<"$3"; then ok "$1"; else nok "$1" "missing '$2' in:" "$3"; fi; }

cat >"$TMP/runner.py" <<'PYEOF'
"""Run a GitHub Actions job's steps as the runner does (see actions.sh)."""
import json, os, re, shutil, subprocess, sys, yaml

wf_path, job_id, project, state_dir = sys.argv[1:5]
skip = {int(x) for x in sys.argv[5:]}      # steps stood in for by an earlier run
wf = yaml.safe_load(open(wf_path))
job = wf["jobs"][job_id]
steps = job["steps"]
ws = os.path.join(state_dir, "workspace")
temp = os.path.join(state_dir, "runner-temp")
os.makedirs(ws, exist_ok=True)
os.makedirs(temp, exist_ok=True)
files = {k: os.path.join(state_dir, k.lower()) for k in ("GITHUB_ENV", "GITHUB_PATH")}
for f in files.values():
    open(f, "a").close()
outputs = {}
env = dict(os.environ)
env.update({k: str(v) for k, v in (wf.get("env") or {}).items()})
env.update({k: str(v) for k, v in (job.get("env") or {}).items()})
env.update(json.loads(os.environ["OVERRIDE_ENV"]))      # CGLINT_REPO, CGLINT_REF
env.update(GITHUB_WORKSPACE=ws, RUNNER_TEMP=temp, CI="true", GITHUB_ACTIONS="true", **files)

def expr(v):
    def one(m):
        e = m.group(1).strip()
        mm = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", e)
        if not mm:
            sys.exit("runner: unsupported expression ${{ %s }}" % e)
        return outputs.get(mm.group(1), {}).get(mm.group(2), "")
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(v))

def read_kv(path):
    d = {}
    for line in open(path):
        if "=" in line:
            k, v = line.rstrip("\n").split("=", 1)
            d[k] = v
    return d

failed = False
for i, st in enumerate(steps):
    if i in skip:
        print("step %d: run before" % i)
        continue
    name = st.get("name") or st.get("uses") or st.get("run", "").split("\n")[0]
    cond = str(st.get("if", ""))
    if failed and "always()" not in cond:
        print("step %d %s: skipped (an earlier step failed)" % (i, name))
        continue
    if "hashFiles('cglint.sarif')" in cond and not os.path.exists(os.path.join(ws, "cglint.sarif")):
        print("step %d %s: skipped (no cglint.sarif)" % (i, name))
        continue
    ok = True
    if "uses" in st:
        u = st["uses"]
        if u.startswith("actions/checkout@"):
            shutil.copytree(project, ws, dirs_exist_ok=True)
        elif u.startswith("github/codeql-action/upload-sarif@"):
            sarif = os.path.join(ws, (st.get("with") or {})["sarif_file"])
            try:
                d = json.load(open(sarif))
                ok = d["version"] == "2.1.0" and d["runs"][0]["tool"]["driver"]["name"] == "cglint"
                print("UPLOADED %s (%s, %d results)" % (os.path.basename(sarif), u, len(d["runs"][0]["results"])))
            except Exception as e:
                print("upload-sarif: %s: %s" % (sarif, e))
                ok = False
        else:
            sys.exit("runner: no stand-in for %s" % u)
    else:
        step_env = dict(env)
        step_env.update(read_kv(files["GITHUB_ENV"]))
        paths = [p for p in open(files["GITHUB_PATH"]).read().splitlines() if p]
        step_env["PATH"] = ":".join(list(reversed(paths)) + [env["PATH"]])
        step_env.update({k: expr(v) for k, v in (st.get("env") or {}).items()})
        out_file = os.path.join(state_dir, "output-%d" % i)
        open(out_file, "w").close()
        step_env["GITHUB_OUTPUT"] = out_file
        script = os.path.join(state_dir, "step-%d.sh" % i)
        open(script, "w").write(expr(st["run"]))
        sys.stdout.flush()
        rc = subprocess.call(["bash", "--noprofile", "--norc", "-eo", "pipefail", script], cwd=ws, env=step_env)
        ok = rc == 0
        if st.get("id"):
            outputs[st["id"]] = read_kv(out_file)
    print("step %d %s: %s" % (i, name, "ok" if ok else "FAILED"))
    failed = failed or not ok
print("JOB %s" % ("FAILED" if failed else "SUCCEEDED"))
sys.exit(1 if failed else 0)
PYEOF

WF=$SRC/docs/ci/github-actions.yml
export OVERRIDE_ENV="{\"CGLINT_REPO\": \"$REPO\", \"CGLINT_REF\": \"$(git -C "$REPO" rev-parse HEAD)\"}"
# the step indices: the build, and the analysis after it
read -r build_i analysis_i <<<"$("$PY" - "$WF" <<'PYEOF'
import sys, yaml
steps = yaml.safe_load(open(sys.argv[1]))["jobs"]["cglint"]["steps"]
b = [i for i, s in enumerate(steps) if "scripts/bootstrap" in s.get("run", "")]
a = [i for i, s in enumerate(steps) if "--format sarif" in s.get("run", "")]
print(b[0] if b else -1, a[0] if a else -1)
PYEOF
)"
[ "$build_i" -ge 0 ] && ok "the workflow builds cglint with scripts/bootstrap" || nok "the workflow builds cglint with scripts/bootstrap"
[ "$analysis_i" -gt "$build_i" ] && ok "one analysis writes SARIF after the build" || nok "one analysis writes SARIF after the build"
has "the job runs in a debian:12 container" "debian:12" "$("$PY" -c 'import sys,yaml; print(yaml.safe_load(open(sys.argv[1]))["jobs"]["cglint"].get("container"))' "$WF")"
has "upload-sarif@v4" "github/codeql-action/upload-sarif@v4" "$(cat "$WF")"
n_sarif=$(grep -c -- "--format sarif" "$WF"); n_github=$(grep -c -- "cglint --format github" "$WF")
[ "$n_sarif" = 1 ] && [ "$n_github" = 0 ] && ok "one analysis feeds both the upload and the annotations" ||
    nok "one analysis feeds both the upload and the annotations" "$n_sarif SARIF runs, $n_github github runs"

S=$TMP/state-hazards
mkdir -p "$S"
t0=$(date +%s)
run "$PY" "$TMP/runner.py" "$WF" cglint "$TMP/projects/hazards" "$S"
echo "# the job with the build took $(($(date +%s) - t0)) s"
expect "hazards: the build step passes and cglint --version runs" 1 "step $build_i Build cglint: ok" "cglint 0."
expect "hazards: the analysis step passes (exit 1 is findings)" 1 "step $analysis_i cglint: ok"
expect "hazards: the SARIF is uploaded with the findings" 1 "UPLOADED cglint.sarif (github/codeql-action/upload-sarif@v4, 2 results)"
expect "hazards: annotations from the SARIF" 1 "::error file=src/helpers.py,line=2,col=12,title=CG101 (" \
    "::error file=src/train.py,line=10,col=9,title=CG104 ("
expect "hazards: the job fails on the findings" 1 "Fail on findings: FAILED" "JOB FAILED" "cglint exited 1"
# the annotations say what `cglint --format github` says (level, file, line)
mine=$(grep '^::' <<<"$out" | sed 's/,col=.*//' | sort)
(cd "$S/workspace" && "$CGLINT" --format github src/ >"$TMP/gh.txt" 2>/dev/null)
theirs=$(sed 's/,col=.*//; s/,endLine=.*//' "$TMP/gh.txt" | sort)
[ -n "$mine" ] && [ "$mine" = "$theirs" ] && ok "the annotations match cglint --format github" ||
    nok "the annotations match cglint --format github" "from SARIF: $mine" "--format github: $theirs"

for case in clean broken; do
    mkdir -p "$TMP/state-$case"
    cp "$S/github_path" "$TMP/state-$case/"   # the build's PATH entry, as the runner keeps it
    cp -r "$S/runner-temp" "$TMP/state-$case/"
    run "$PY" "$TMP/runner.py" "$WF" cglint "$TMP/projects/$case" "$TMP/state-$case" "$build_i"
    eval "out_$case=\$out; rc_$case=\$rc"
done
out=$out_clean rc=$rc_clean
expect "clean: the job succeeds" 0 "step $analysis_i cglint: ok" "UPLOADED cglint.sarif (github/codeql-action/upload-sarif@v4, 0 results)" "JOB SUCCEEDED"
refute "clean: no annotations" "::error" "::warning" "::notice"
out=$out_broken rc=$rc_broken
expect "broken: exit 2 fails the analysis step" 1 "step $analysis_i cglint: FAILED" "JOB FAILED"
expect "broken: the SARIF is still uploaded and annotated" 1 "UPLOADED cglint.sarif" "::error file=src/helpers.py,line=2"
expect "broken: the findings step is skipped" 1 "Fail on findings: skipped"
finish
