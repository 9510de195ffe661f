#!/usr/bin/env python3
"""formats_check.py - read the golden reports of the line-oriented formats as
their consumers do (issue 15 item 6), so a golden file cannot be wrong in a
way a byte comparison keeps:

  junit   parsed with xml.etree; the shape Jenkins' JUnit plugin, GitLab's
          and Azure's test-report readers expect: <testsuites> of <testsuite
          name tests failures errors> whose counts match their <testcase
          name classname> children, a <failure message type> per finding
  gitlab  GitLab Code Quality: an array of issues, each with description,
          check_name, fingerprint (unique), severity (info minor major
          critical blocker) and location.path with location.lines.begin
  jsonl   every line a finding object valid against docs/json-schema.md

Usage: formats_check.py GOLDEN_DIR DOCS_JSON_SCHEMA_MD [FILE:FORMAT ...]
(the extra arguments check files a test produced, FORMAT junit|gitlab|jsonl)."""
import json, re, sys
import xml.etree.ElementTree as ET

bad = []

def check_junit(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        bad.append("%s: root is <%s>, not <testsuites>" % (path, root.tag)); return
    total = [0, 0, 0]
    for suite in root:
        if suite.tag != "testsuite":
            bad.append("%s: <%s> under <testsuites>" % (path, suite.tag)); continue
        cases = suite.findall("testcase")
        fails = sum(1 for c in cases if c.find("failure") is not None)
        errs = sum(1 for c in cases if c.find("error") is not None)
        for k, want in (("tests", len(cases)), ("failures", fails), ("errors", errs)):
            if int(suite.get(k, "-1")) != want:
                bad.append("%s: testsuite %r says %s=%s, has %d" % (path, suite.get("name"), k, suite.get(k), want))
        for c in cases:
            if not c.get("name") or not c.get("classname"):
                bad.append("%s: a testcase without name or classname" % path)
            f = c.find("failure")
            if f is not None and (not f.get("message") or not f.get("type")):
                bad.append("%s: a failure without message or type" % path)
        total[0] += len(cases); total[1] += fails; total[2] += errs
    for k, want in zip(("tests", "failures", "errors"), total):
        if int(root.get(k, "-1")) != want:
            bad.append("%s: testsuites says %s=%s, has %d" % (path, k, root.get(k), want))

def check_gitlab(path):
    issues = json.load(open(path, encoding="utf-8"))
    if not isinstance(issues, list):
        bad.append("%s: not an array" % path); return
    seen = set()
    for i, x in enumerate(issues):
        where = "%s: issue %d" % (path, i)
        for k in ("description", "check_name", "fingerprint", "severity"):
            if not isinstance(x.get(k), str) or not x[k]:
                bad.append("%s: %s is not a non-empty string" % (where, k))
        if x.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
            bad.append("%s: severity %r" % (where, x.get("severity")))
        if x.get("fingerprint") in seen:
            bad.append("%s: fingerprint %s repeats (GitLab shows only the first)" % (where, x.get("fingerprint")))
        seen.add(x.get("fingerprint"))
        loc = x.get("location") or {}
        if not isinstance(loc.get("path"), str):
            bad.append("%s: location.path" % where)
        begin = (loc.get("lines") or {}).get("begin")
        if not isinstance(begin, int) or begin < 1:
            bad.append("%s: location.lines.begin %r" % (where, begin))

def check_jsonl(path, schema_doc):
    try:
        import jsonschema
    except ImportError:
        print("jsonschema is not installed: json-lines checked as JSON only")
        jsonschema = None
    validator = None
    if jsonschema:
        text = open(schema_doc, encoding="utf-8").read()
        section = text.split("\n## JSON Schema\n", 1)[1]
        schema = json.loads(re.search(r"^```json\n(.*?)^```", section, re.S | re.M).group(1))
        sub = dict(schema["$defs"]["finding"]); sub["$defs"] = schema["$defs"]
        validator = jsonschema.Draft202012Validator(sub)
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        obj = json.loads(line)
        for err in (validator.iter_errors(obj) if validator else []):
            bad.append("%s:%d: %s" % (path, n, err.message))

if __name__ == "__main__":
    golden, schema_doc = sys.argv[1], sys.argv[2]
    jobs = [(golden + "/report.junit.xml", "junit"), (golden + "/report.gitlab.json", "gitlab"),
            (golden + "/report.jsonl", "jsonl")]
    jobs += [tuple(a.rsplit(":", 1)) for a in sys.argv[3:]]
    for path, fmt in jobs:
        {"junit": check_junit, "gitlab": check_gitlab}.get(fmt, lambda p: check_jsonl(p, schema_doc))(path)
        print("checked %s (%s)" % (path, fmt))
    for b in bad: print(b)
    sys.exit(1 if bad else 0)
