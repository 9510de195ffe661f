#!/usr/bin/env python3
"""info_formats.py - --statistics, --list-rules and --explain in every output
format (issue 15 item 6), each read as its format's reader reads it:

  text, github   the table (or the rule's page), no error, exit as usual
  concise        "count  CODE  name" / "CODE name" lines
  json, gitlab   one JSON document of the documented shape
  json-lines     one JSON object a line
  sarif          a SARIF 2.1.0 log of one run with no results: the catalog in
                 tool.driver.rules, the counts in run.properties.statistics
                 (and the SARIF Multitool's verdict when SARIF_MULTITOOL is set)
  junit          tests/formats_check.py's JUnit reader
  html           html.parser: balanced, a <table>, no <script>, no URL loaded

Usage: info_formats.py CGLINT SOURCE_DIR"""
import json, os, re, subprocess, sys, tempfile
from html.parser import HTMLParser

cglint, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "tests"))
import formats_check  # noqa: E402  (its check_junit appends to formats_check.bad)

FORMATS = ["text", "concise", "json", "json-lines", "sarif", "junit", "gitlab", "html", "github"]
bad = []

tmp = tempfile.mkdtemp(prefix="cglint-info-")
with open(os.path.join(tmp, "train.py"), "w") as f:
    f.write("import torch\n\n\ndef step(g, loss):\n    with torch.cuda.graph(g):\n"
            "        v = loss.item()\n        w = loss.item()\n        print(v, w)\n")
# what the findings are, from the json report: the statistics must agree
report = json.loads(subprocess.run([cglint, "--no-cache", "-f", "json", "."], cwd=tmp,
                                   capture_output=True, text=True).stdout)
want = {}
for x in report["findings"]:
    want[x["rule"]] = want.get(x["rule"], 0) + 1
if want.get("CG101") != 2:
    sys.exit("fixture: expected two CG101 findings, got %r" % want)


class Page(HTMLParser):
    VOID = {"meta", "br", "img", "hr", "link", "input", "col", "area", "base", "wbr", "source"}

    def __init__(self):
        super().__init__()
        self.stack, self.tags, self.errors, self.text = [], set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for k, v in attrs:
            if k in ("src", "href") or (v and re.search(r"\burl\(", v)):
                self.errors.append("<%s %s=%r> loads something" % (tag, k, v))
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %r" % (tag, self.stack[-1:] or None))
        else:
            self.stack.pop()

    def handle_data(self, d):
        self.text.append(d)


def check_html(what, out):
    p = Page()
    p.feed(out)
    p.close()
    if p.errors or p.stack:
        bad.append("%s: HTML %s (left open: %s)" % (what, p.errors[:3], p.stack))
    if "script" in p.tags:
        bad.append("%s: a <script>" % what)
    return "".join(p.text)


def check_sarif(what, out, rules):
    doc = json.loads(out)
    if doc.get("version") != "2.1.0" or len(doc.get("runs", [])) != 1:
        bad.append("%s: not a SARIF 2.1.0 log of one run" % what)
        return {}
    run = doc["runs"][0]
    if run.get("results") != []:
        bad.append("%s: results %r, not an empty array" % (what, run.get("results"))[:200])
    got = [r["id"] for r in run["tool"]["driver"]["rules"]]
    if rules is not None and got != rules:
        bad.append("%s: tool.driver.rules %s" % (what, got[:5]))
    if os.environ.get("SARIF_MULTITOOL"):
        path = os.path.join(tmp, "info.sarif")
        open(path, "w").write(out)
        v = subprocess.run(["bash", os.path.join(src, "tests/sarif_validate.sh"), path],
                           capture_output=True, text=True)
        if v.returncode:
            bad.append("%s: SARIF Multitool: %s" % (what, (v.stdout + v.stderr)[-400:]))
    return run


def cg(*args):
    p = subprocess.run([cglint, "--no-cache", *args], cwd=tmp, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def stats_of(fmt, out, what):
    """The counts a reader gets from --statistics output: {code: count}."""
    if fmt in ("text", "github", "concise"):
        return {m[1]: int(m[0]) for m in re.findall(r"^\s*(\d+)\s+(CG\d+)\s", out, re.M)}
    if fmt in ("json", "gitlab"):
        return {x["code"]: x["count"] for x in json.loads(out)}
    if fmt == "json-lines":
        return {x["code"]: x["count"] for x in map(json.loads, out.splitlines())}
    if fmt == "sarif":
        run = check_sarif(what, out, None)
        return {x["code"]: x["count"] for x in run.get("properties", {}).get("statistics", [])}
    if fmt == "junit":
        path = os.path.join(tmp, "info.xml")
        open(path, "w").write(out)
        formats_check.check_junit(path)
        return {m[1]: int(m[0]) for m in re.findall(r'message="(\d+) findings? [^"]*" type="(CG\d+)"', out)}
    if fmt == "html":
        text = check_html(what, out)
        return {m[1]: int(m[0]) for m in re.findall(r"(\d+)(CG\d+)", text)}


all_codes = None
for fmt in FORMATS:
    # --statistics: exit 1 (there are findings), nothing on stderr, the counts of the report
    what = "--statistics -f %s" % fmt
    rc, out, err = cg("--statistics", "-f", fmt, ".")
    if rc != 1 or err:
        bad.append("%s: exit %d, stderr %r" % (what, rc, err[:200]))
    else:
        try:
            got = stats_of(fmt, out, what)
            if got != want:
                bad.append("%s: counts %r, want %r" % (what, got, want))
        except (ValueError, KeyError, TypeError) as e:
            bad.append("%s: does not parse: %s: %s" % (what, e, out[:200]))
    # --list-rules: exit 0, every rule
    what = "--list-rules -f %s" % fmt
    rc, out, err = cg("--list-rules", "-f", fmt)
    if rc != 0 or err:
        bad.append("%s: exit %d, stderr %r" % (what, rc, err[:200]))
        continue
    try:
        if fmt in ("text", "github", "concise"):
            codes = re.findall(r"^(CG\d+) ", out, re.M)
        elif fmt in ("json", "gitlab"):
            codes = [x["code"] for x in json.loads(out)]
        elif fmt == "json-lines":
            codes = [json.loads(l)["code"] for l in out.splitlines()]
        elif fmt == "sarif":
            codes = [r["id"] for r in check_sarif(what, out, None)["tool"]["driver"]["rules"]]
        elif fmt == "junit":
            path = os.path.join(tmp, "rules.xml")
            open(path, "w").write(out)
            formats_check.check_junit(path)
            codes = re.findall(r'<testcase name="(CG\d+) ', out)
        elif fmt == "html":
            codes = re.findall(r"<td><code>(CG\d+)</code>", out)
            check_html(what, out)
    except (ValueError, KeyError, TypeError) as e:
        bad.append("%s: does not parse: %s" % (what, e))
        continue
    if all_codes is None:
        all_codes = codes
        if len(codes) < 30 or "CG101" not in codes:
            bad.append("%s: only %d rules" % (what, len(codes)))
    elif codes != all_codes:
        bad.append("%s: %d rules, text lists %d" % (what, len(codes), len(all_codes)))
    # --explain CG101 (the format after it: the format given anywhere counts)
    what = "--explain CG101 -f %s" % fmt
    rc, out, err = cg("--explain", "CG101", "-f", fmt)
    if rc != 0 or err:
        bad.append("%s: exit %d, stderr %r" % (what, rc, err[:200]))
        continue
    try:
        if fmt in ("text", "github"):
            ok = out.startswith("# CG101")
        elif fmt == "concise":
            ok = out == "CG101 host-scalar-read\n"
        elif fmt in ("json", "gitlab"):
            x = json.loads(out)
            ok = x["code"] == "CG101" and x["explanation"].startswith("# CG101")
        elif fmt == "json-lines":
            lines = out.splitlines()
            ok = len(lines) == 1 and json.loads(lines[0])["explanation"].startswith("# CG101")
        elif fmt == "sarif":
            check_sarif(what, out, ["CG101"])
            ok = True
        elif fmt == "junit":
            path = os.path.join(tmp, "explain.xml")
            open(path, "w").write(out)
            formats_check.check_junit(path)
            ok = "<system-out># CG101" in out
        elif fmt == "html":
            ok = "# CG101: host-scalar-read" in check_html(what, out) and "<pre># CG101:" in out
    except (ValueError, KeyError, TypeError) as e:
        ok = False
        out = "%s: %s" % (e, out)
    if not ok:
        bad.append("%s: unexpected output %r" % (what, out[:200]))

bad += formats_check.bad
for b in bad:
    print(b)
print("%d formats x --statistics, --list-rules, --explain: %s" % (len(FORMATS), "FAILED" if bad else "ok"))
sys.exit(1 if bad else 0)
