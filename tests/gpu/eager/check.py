"""The GPU check of the replay time against the same step run eagerly
(issue 15): positive.py must report MLP.forward's eager GPU time, larger
than its replay time (eight small layers: launch-bound eagerly), and
negative_body.py none (its capture's body runs a backward of its own).

  python3 tests/gpu/eager/check.py CGLINT PYTHON OUTDIR

Prints one PASS/FAIL line per program; exit 0 when both pass.  Needs
Python >= 3.12 in PYTHON (sys.monitoring): says so and exits 77 otherwise."""
import json
import os
import subprocess
import sys

cglint, py, out = sys.argv[1], sys.argv[2], sys.argv[3]
here = os.path.dirname(os.path.abspath(__file__))
ver = subprocess.run([py, "-c", "import sys; print(sys.version_info >= (3, 12))"], stdout=subprocess.PIPE, text=True)
if ver.stdout.strip() != "True":
    print("SKIP: eager step time: %s is older than Python 3.12 (no sys.monitoring)" % py)
    sys.exit(77)
none = os.path.join(out, "eager-none.json")
with open(none, "w") as f:
    json.dump({"schema_version": 1, "tool": {"name": "cglint"}, "findings": []}, f)
ok = True
for prog, want in (("positive.py", True), ("negative_body.py", False)):
    rep = os.path.join(out, "eager-%s.json" % prog[:-3])
    p = subprocess.run([cglint, "run", "--findings", none, "-f", "json", "-o", rep, "--", py, prog],
                       cwd=here, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=300)
    try:
        reg = json.load(open(rep))["run"]["regions"][0]
    except Exception as e:
        print("FAIL eager %s: no report (%s; exit %d): %s" % (prog, e, p.returncode, p.stderr[-500:]))
        ok = False
        continue
    got = (reg["eager_step"], reg["eager_step_ms"], reg["eager_calls"], reg["mean_replay_ms"], reg["replays"])
    if want:
        good = (p.returncode == 0 and reg["eager_step"] == "MLP.forward" and reg["eager_calls"] >= 5 and
                reg["mean_replay_ms"] is not None and reg["eager_step_ms"] is not None and
                reg["eager_step_ms"] > reg["mean_replay_ms"])
    else:
        good = p.returncode == 0 and reg["eager_step_ms"] is None and reg["replays"] == 100
    ok &= good
    print("%s eager %s: step %s, eager %s ms over %s calls, mean replay %s ms, %s replays" %
          (("PASS" if good else "FAIL"), prog) + got)
sys.exit(0 if ok else 1)
