#!/usr/bin/env bash
# tests/gpu/run.sh - the GPU suite of `cglint run`: for every rule whose
# runtime signal the harness observes, run tests/gpu/py/<RULE>/positive.py and
# negative.py (PyTorch) and tests/gpu/cu/<RULE>/positive.cu and negative.cu
# (CUDA C, built with nvcc -g, observed by the CUPTI library) under
# `cglint run` on a real GPU, and require
#   positive: the finding of <RULE> in positive.py is `confirmed` (or the
#             verdicts listed in the file `verdict`, e.g. found_at_runtime
#             for a rule only the run reports), with evidence matching
#             tests/gpu/py/<RULE>/expect (a regex);
#   negative: the program exits 0, captures at least once, and the run
#             confirms nothing and finds nothing in negative.py, and no
#             capture region lies in inductor's generated code.
# Variants: positive_<V>.py is judged by expect_<V>, verdict_<V> (default
# confirmed) and rules_<V> (the rules that may report it; default <RULE>);
# negative_<V>.py as a negative.  Last, tests/gpu/py/CG304/positive_nogpu.py
# runs again with CUDA_VISIBLE_DEVICES="" under --strict: one line says no
# device is visible, every finding is `not exercised` (no capture ran), and
# the exit status is 1.
# The static findings come from tests/gpu/findings.json (written by
# `cglint -f json` on these files; ctest gpu.findings-current keeps it
# current), so a cglint built with CGLINT_ANALYZERS=OFF runs this suite too.
#
# Without a GPU, or without PyTorch seeing one, it prints why and exits 77
# (ctest: skipped).
#
# Usage: tests/gpu/run.sh [--cglint PATH] [--python PY] [--out DIR] [--jobs N] [RULE...]
# Writes DIR/results.md (the table), DIR/<RULE>-{positive,negative}.{json,log}.
# Exit status: 0 all pass, 1 a failure, 77 skipped, 2 usage.
set -uo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CGLINT=$REPO/build/cglint
PY=${PYTHON:-python3}
OUT=""
JOBS=6
RULES=()
while [ $# -gt 0 ]; do
    case "$1" in
    --cglint) CGLINT=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
    --python) PY=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) RULES+=("$1"); shift ;;
    esac
done

skip() { echo "SKIP: GPU tests: $*"; exit 77; }
if ! ls /dev/nvidia0 /dev/nvidiactl >/dev/null 2>&1 && ! command -v nvidia-smi >/dev/null 2>&1; then
    skip "no NVIDIA GPU on this machine (no /dev/nvidia*, no nvidia-smi)"
fi
command -v "$PY" >/dev/null 2>&1 || skip "no Python interpreter '$PY' (set PYTHON or --python)"
if ! probe=$("$PY" -c 'import torch,sys; sys.exit(0 if torch.cuda.is_available() else 3)' 2>&1); then
    case $? in
    3) skip "PyTorch ($("$PY" -c 'import torch;print(torch.__version__)' 2>/dev/null)) sees no GPU: torch.cuda.is_available() is False" ;;
    *) skip "PyTorch is not importable by $PY: $(echo "$probe" | tail -1)" ;;
    esac
fi
[ -x "$CGLINT" ] || { echo "run.sh: no cglint at $CGLINT (build it, or pass --cglint)" >&2; exit 2; }

[ -n "$OUT" ] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/cglint-gpu.XXXXXX")
mkdir -p "$OUT/events"
OUT=$(cd "$OUT" && pwd)
RULES_GIVEN=("${RULES[@]}")
[ ${#RULES_GIVEN[@]} -gt 0 ] || RULES_GIVEN=()
if [ ${#RULES[@]} -eq 0 ]; then
    for d in "$HERE"/py/CG*/; do RULES+=("$(basename "$d")"); done
else
    # rules named on the command line: the Python programs among them
    keep=()
    for r in "${RULES[@]}"; do [ -d "$HERE/py/$r" ] && keep+=("$r"); done
    RULES=("${keep[@]}")
fi

cd "$REPO"
run_case() { # RULE KIND
    local rule=$1 kind=$2 start end
    start=$(date +%s%N)
    timeout 600 "$CGLINT" run --events "$OUT/events/$rule-$kind" --findings tests/gpu/findings.json -f json \
        -o "$OUT/$rule-$kind.json" -- "$PY" "tests/gpu/py/$rule/$kind.py" >"$OUT/$rule-$kind.log" 2>&1
    local rc=$?
    end=$(date +%s%N)
    echo "$rc $(( (end - start) / 1000000 ))" >"$OUT/$rule-$kind.rc"
}
export -f run_case
export CGLINT PY OUT
# every positive*.py and negative*.py of each rule: "RULE CASE" lines
py_cases() {
    local r f
    for r in "${RULES[@]}"; do
        for f in "$HERE"/py/"$r"/positive*.py "$HERE"/py/"$r"/negative*.py; do
            [ -f "$f" ] && echo "$r $(basename "$f" .py)"
        done
    done
}
py_cases | xargs -P "$JOBS" -L 1 bash -c 'run_case "$0" "$1"'

# The CUDA C programs: tests/gpu/cu/<RULE>/{positive,negative}.cu, built with
# nvcc -g and run under the CUPTI library; judged as the Python ones are.
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
CU_RULES=()
for d in "$HERE"/cu/CG*/; do
    r=$(basename "$d")
    if [ ${#RULES_GIVEN[@]} -gt 0 ] && ! printf '%s\n' "${RULES_GIVEN[@]}" | grep -qx "$r"; then continue; fi
    CU_RULES+=("$r")
done
run_cu_case() { # RULE KIND
    local rule=$1 kind=$2 start end bin="$OUT/cu-$1-$2"
    if ! "$NVCC" -g -O0 -Xcompiler -pthread -o "$bin" "tests/gpu/cu/$rule/$kind.cu" >"$OUT/cu-$rule-$kind.nvcc.log" 2>&1; then
        echo "2 0" >"$OUT/cu-$rule-$kind.rc"
        return
    fi
    start=$(date +%s%N)
    timeout 300 "$CGLINT" run --events "$OUT/events/cu-$rule-$kind" --findings tests/gpu/findings.json -f json \
        -o "$OUT/cu-$rule-$kind.json" -- "$bin" >"$OUT/cu-$rule-$kind.log" 2>&1
    local rc=$?
    end=$(date +%s%N)
    echo "$rc $(( (end - start) / 1000000 ))" >"$OUT/cu-$rule-$kind.rc"
}
export -f run_cu_case
export NVCC
if [ -x "$NVCC" ] && [ ${#CU_RULES[@]} -gt 0 ]; then
    for r in "${CU_RULES[@]}"; do
        for f in "$HERE"/cu/"$r"/positive*.cu "$HERE"/cu/"$r"/negative*.cu; do
            [ -f "$f" ] && echo "$r $(basename "$f" .cu)"
        done
    done | xargs -P "$JOBS" -L 1 bash -c 'run_cu_case "$0" "$1"'
else
    [ ${#CU_RULES[@]} -gt 0 ] && echo "run.sh: no nvcc ($NVCC): the CUDA C programs are skipped" >&2
    CU_RULES=()
fi

# A native program too (the CUPTI library and addr2line): built with -g.
if [ -x "$NVCC" ] && "$NVCC" -g -O0 -o "$OUT/capture_hazards" tests/gpu/cu/capture_hazards.cu >"$OUT/nvcc.log" 2>&1; then
    CGLINT_CUPTI_DEBUG=1 timeout 300 "$CGLINT" run --events "$OUT/cu-events" --findings tests/gpu/findings.json \
        -f json -o "$OUT/cu.json" -- "$OUT/capture_hazards" >"$OUT/cu.log" 2>&1
    echo "$?" >"$OUT/cu.rc"
    cat "$OUT"/cu-events/cupti-*.jsonl 2>/dev/null | grep '"debug"' >>"$OUT/cu.log"
else
    echo "run.sh: nvcc could not build tests/gpu/cu/capture_hazards.cu (see $OUT/nvcc.log); the CUDA C rows are skipped" >&2
fi

# No GPU, no silence: the same program with every device hidden, under --strict.
NOGPU=tests/gpu/py/CG304/positive_nogpu.py
if [ -f "$NOGPU" ] && { [ ${#RULES_GIVEN[@]} -eq 0 ] || printf '%s\n' "${RULES_GIVEN[@]}" | grep -qx CG304; }; then
    CUDA_VISIBLE_DEVICES="" timeout 300 "$CGLINT" run --strict --findings tests/gpu/findings.json -f json \
        -o "$OUT/nogpu.json" -- "$PY" "$NOGPU" >"$OUT/nogpu.log" 2>&1
    echo "$?" >"$OUT/nogpu.rc"
fi

CU_RULES="${CU_RULES[*]}" "$PY" - "$OUT" "$HERE" "${RULES[@]}" <<'EOF'
import datetime, json, os, re, subprocess, sys
out, here, py_rules = sys.argv[1], sys.argv[2], sys.argv[3:]
cu_rules = os.environ.get("CU_RULES", "").split()

def load(prefix, rule, kind):
    rc, secs = open(os.path.join(out, "%s%s-%s.rc" % (prefix, rule, kind))).read().split()
    try:
        doc = json.load(open(os.path.join(out, "%s%s-%s.json" % (prefix, rule, kind))))
    except Exception:
        doc = None
    return int(rc), float(secs or 0) / 1000.0, doc


def read(lang, rule, name):
    try:
        return open(os.path.join(here, lang, rule, name)).read().strip()
    except OSError:
        return None


def versions():
    import torch
    v = {"torch": torch.__version__, "cuda": torch.version.cuda, "gpu": torch.cuda.get_device_name()}
    try:
        v["driver"] = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                                     capture_output=True, text=True).stdout.strip().splitlines()[0]
    except Exception:
        v["driver"] = "?"
    return v


def judge_positive(lang, prefix, ext, rule, case):
    """(verdict, evidence, ok, why) of a positive case."""
    v = case[len("positive"):]                      # "" or "_<variant>"
    expect = read(lang, rule, "expect" + v) or (read(lang, rule, "expect") if not v else None) or "."
    verdicts = (read(lang, rule, "verdict" + v) or "confirmed").split()
    rules = (read(lang, rule, "rules" + v) or rule).split()
    rc, secs, doc = load(prefix, rule, case)
    if not doc:
        return "no report", "", False, "%s: no report (exit %d)" % (case, rc), secs
    fs = [f for f in doc["findings"] if f["rule"] in rules and f["path"].endswith("%s/%s%s" % (rule, case, ext))]
    good = [f for f in fs if f["verdict"] in verdicts and re.search(expect, f["evidence"] or "")]
    f = (good or fs or [None])[0]
    pv, pe = (f["verdict"], "%s%s" % ("" if f["rule"] == rule else f["rule"] + ": ", f["evidence"] or "")) if f else ("none", "")
    bad_notice = [e["message"] for e in doc.get("errors", []) if "no rule of this catalog" in e["message"]]
    ok = bool(good) and not bad_notice
    why = "" if ok else "%s: %s (want %s of %s /%s/)%s" % (case, pv, "|".join(verdicts), "|".join(rules), expect,
                                                          "; " + bad_notice[0] if bad_notice else "")
    return pv, pe, ok, why, secs


def judge_negative(prefix, ext, rule, case):
    rc, secs, doc = load(prefix, rule, case)
    if not doc:
        return "no report", False, "%s: no report (exit %d)" % (case, rc), secs
    bad = [f for f in doc["findings"] if f["path"].endswith("%s/%s%s" % (rule, case, ext))
           and f["verdict"] in ("confirmed", "found_at_runtime")]
    regions = doc["run"]["regions"]
    caps = sum(r["captures"] for r in regions)
    generated = [r["path"] for r in regions if "torchinductor" in r["path"]]
    nv = "clean" if not bad else "; ".join("%s %s: %s" % (f["rule"], f["verdict"], f["evidence"]) for f in bad)
    if generated:
        nv += "; a region in generated code: " + generated[0]
    ok = not bad and not generated and rc == 0 and caps > 0
    return nv, ok, "" if ok else "%s: exit %d, %d captures, %s" % (case, rc, caps, nv), secs


rows, failures = [], 0
for lang, prefix, ext, rules in (("py", "", ".py", py_rules), ("cu", "cu-", ".cu", cu_rules)):
    for rule in rules:
        files = sorted(os.listdir(os.path.join(here, lang, rule)))
        cases = [f[:-len(ext)] for f in files if f.endswith(ext) and f.startswith(("positive", "negative"))]
        pos = [c for c in cases if c.startswith("positive")]
        neg = [c for c in cases if c.startswith("negative")]
        label = rule + (" (CUDA C)" if lang == "cu" else "")
        # the pair first, then each variant on a row of its own
        pv, pe, pok, pwhy, psecs = judge_positive(lang, prefix, ext, rule, "positive") if "positive" in pos else \
            ("n/a", "", True, "", 0)
        nv, nok, nwhy, nsecs = judge_negative(prefix, ext, rule, "negative") if "negative" in neg else \
            ("n/a", True, "", 0)
        ok = pok and nok
        failures += not ok
        rows.append((label, pv, pe, nv, ok, psecs + nsecs, "; ".join(w for w in (pwhy, nwhy) if w)))
        for c in pos:
            if c != "positive":
                pv, pe, pok, pwhy, secs = judge_positive(lang, prefix, ext, rule, c)
                failures += not pok
                rows.append(("%s %s" % (label, c), pv, pe, "n/a", pok, secs, pwhy))
        for c in neg:
            if c != "negative":
                nv, nok, nwhy, secs = judge_negative(prefix, ext, rule, c)
                failures += not nok
                rows.append(("%s %s" % (label, c), "n/a", "", nv, nok, secs, nwhy))

nog = os.path.join(out, "nogpu.json")
if os.path.exists(os.path.join(out, "nogpu.rc")):
    rc = int(open(os.path.join(out, "nogpu.rc")).read().split()[0])
    log = open(os.path.join(out, "nogpu.log")).read()
    try:
        doc = json.load(open(nog))
    except Exception:
        doc = {"findings": []}
    warn = [l for l in log.splitlines() if l.startswith("cglint: warning")]
    fs = [f for f in doc["findings"] if f["path"].endswith("positive_nogpu.py")]
    why = []
    if rc != 1:
        why.append("exit %d (want 1 under --strict)" % rc)
    if len(warn) != 1 or "no CUDA device is visible" not in warn[0]:
        why.append("warnings: %r" % warn)
    if not fs or any(f["verdict"] != "not_exercised" or f["evidence"] != "no capture ran" for f in fs):
        why.append("findings: %r" % [(f["rule"], f["verdict"], f["evidence"]) for f in fs])
    if "no GPU: nothing to capture" not in log:
        why.append("the program's own output is missing")
    failures += bool(why)
    rows.append(('CG304 positive_nogpu, CUDA_VISIBLE_DEVICES=""', fs[0]["verdict"] if fs else "none",
                 warn[0] if warn else "", "n/a", not why, 0, "; ".join(why)))

cu = os.path.join(out, "cu.json")
if os.path.exists(cu):
    src = open(os.path.join(here, "cu", "capture_hazards.cu")).read().splitlines()
    line_of = {tag: i + 1 for i, l in enumerate(src) for tag in ("HAZARD-EAGER", "HAZARD-SYNC") if tag in l}
    try:
        doc = json.load(open(cu))
    except Exception:
        doc = {"findings": []}
    for rule, tag, expect in (("CG403", "HAZARD-EAGER", r"eagerly"),
                              ("CG104", "HAZARD-SYNC", r"cudaStreamSynchronize -> cudaErrorStreamCaptureUnsupported")):
        fs = [f for f in doc["findings"] if f["rule"] == rule and f["path"].endswith("capture_hazards.cu")]
        f = fs[0] if fs else None
        ok = bool(f) and f["line"] == line_of[tag] and f["verdict"] == "found_at_runtime" and re.search(expect, f["evidence"] or "")
        why = "" if ok else "want found_at_runtime at capture_hazards.cu:%d /%s/; got %s" % (
            line_of[tag], expect, "%s at line %d" % (f["verdict"], f["line"]) if f else "nothing")
        failures += not ok
        rows.append((rule + " (CUDA C)", f["verdict"] if f else "none", (f["evidence"] or "") if f else "", "n/a", ok, 0, why))

v = versions()
date = datetime.date.today().isoformat()
lines = ["GPU: %s; driver %s; CUDA %s; PyTorch %s; Python %s; %s" %
         (v["gpu"], v["driver"], v["cuda"], v["torch"], sys.version.split()[0], date), "",
         "| rule | positive | evidence | negative | result |", "|---|---|---|---|---|"]
for rule, pv, pe, nv, ok, secs, why in rows:
    lines.append("| %s | %s | %s | %s | %s |" % (rule, pv, pe.replace("|", "\\|")[:300], nv.replace("|", "\\|")[:200],
                                                "pass" if ok else "FAIL: " + why.replace("|", "\\|")))
lines.append("")
lines.append("%d passed, %d failed" % (len(rows) - failures, failures))
text = "\n".join(lines) + "\n"
open(os.path.join(out, "results.md"), "w").write(text)
sys.stdout.write(text)
sys.exit(1 if failures else 0)
EOF
