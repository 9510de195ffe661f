#!/usr/bin/env python3
"""gen_rules.py - generate cglint's rule table from the rule pages rules/CG*.md.

The rule pages are the single source of truth for the catalog: the C enum of
rule ids (rule_ids.h), the C table the analyzer, emitters and `--explain` read
(rules_table.c, see src/core/rules.h) and the user documentation
(docs/rules.md) are all generated from them, in the manner of sqlite's
mkpragmatab.tcl or ruff's rule-doc generator.

Usage:
  python3 rules/gen_rules.py --rules-dir rules
      [--header OUT/rule_ids.h] [--table OUT/rules_table.c]
      [--docs docs/rules.md] [--check-docs docs/rules.md]

With no output option the rule pages are only validated.  Every problem is
reported on one line, `path:line: message`, and the exit status is 1.  Output
files are rewritten only when their content changes, so builds stay
incremental.  Standard library only; Python 3.8 or newer.
"""

import argparse
import os
import re
import shlex
import sys
import tempfile

# ---- the format -----------------------------------------------------------

KEYS = ("id", "name", "category", "severity", "languages", "status", "since",
        "runtime", "runtime-signal", "summary", "fix", "fix-cu", "compiled-as")

SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead",
            "Measured", "References")

CATEGORIES = {0: "meta", 1: "sync", 2: "dynamic", 3: "cpu", 4: "stream", 5: "memory",
              6: "state", 7: "setup", 8: "launch", 9: "perf"}
CATEGORY_NUMBER = {name: num for num, name in CATEGORIES.items()}

SEVERITIES = {"error": "CG_SEV_ERROR", "warning": "CG_SEV_WARNING",
              "note": "CG_SEV_NOTE"}
STATUSES = ("stable", "preview", "deprecated")
LANGUAGES = ("py", "cu")          # canonical order

SUMMARY_MAX = 100

# runtime-signal: what `cglint run` matches to confirm a finding
# (src/run/join.c); the C bits are in src/core/rules.h.  Observations first,
# then the two modifiers, which widen where an observation may be.
SIGNALS = (
    ("error", "CG_SIG_ERROR"),      # an exception or a failing CUDA call
    ("eager", "CG_SIG_EAGER"),      # work ran eagerly on a non-capturing stream
    ("cpu", "CG_SIG_CPU"),          # an operator on CPU tensors during capture
    ("pin", "CG_SIG_PIN"),          # a pinned allocation during capture
    ("dynop", "CG_SIG_DYNOP"),      # an operator that failed at capture
    ("scalar", "CG_SIG_SCALAR"),    # a number read at capture changed
    ("rebind", "CG_SIG_REBIND"),    # a name read by the region was rebound
    ("hparam", "CG_SIG_HPARAM"),    # a captured optimizer hyperparameter changed
    ("many", "CG_SIG_MANY"),        # one site captured again and again
    ("lines", "CG_SIG_LINES"),      # the line ran at capture, not at replay
    ("break", "CG_SIG_BREAK"),      # a torch.compile graph break at the line (Dynamo's hook)
    ("skip", "CG_SIG_SKIP"),        # inductor skipped CUDA graphs for the function
    ("region", "CG_SIG_REGION"),    # modifier: anywhere in the finding's capture
    ("block", "CG_SIG_BLOCK"),      # modifier: inside the `with` block it opens
)
SIGNAL_C = dict(SIGNALS)
SIGNAL_MODIFIERS = ("region", "block")

# Marks scaffold text written by scripts/add-rule: allowed only while the
# rule's status is `preview`.
TODO_MARK = "TODO(add-rule)"

ID_RE = re.compile(r"^CG[0-9]{3}$")
NAME_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
VERSION_RE = re.compile(r"^[0-9]+\.[0-9]+\.[0-9]+$")
KEY_RE = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:(.*)$")
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
HEADING_RE = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$")

DOCS_TITLE = "cglint rules"

# What to write for a key that is missing; `none` is an explicit value, an
# absent key is always an error.
MISSING_HINT = {
    "runtime": "what `cglint run` can observe, or none",
    "runtime-signal": "the observations that confirm a finding, e.g. "
                      "'error dynop', or none for a static-only rule",
    "fix-cu": "the fix sentence for C/C++/CUDA findings when `fix` speaks "
              "PyTorch, or none",
    "compiled-as": "the rule reported instead under "
                   "torch.compile(mode=\"reduce-overhead\"), or none",
}


class Rule:
    """One parsed rule page."""

    def __init__(self, path):
        self.path = path
        self.fields = {}       # key -> value
        self.key_line = {}     # key -> line number
        self.body = ""         # Markdown after the front matter
        self.sections = {}     # heading -> list of body lines

    def __getattr__(self, key):
        fields = self.__dict__.get("fields", {})
        if key in fields:
            return fields[key]
        raise AttributeError(key)

    @property
    def category_number(self):
        return CATEGORY_NUMBER[self.fields["category"]]

    @property
    def runtime_c(self):
        r = self.fields["runtime"]
        return None if r == "none" else r

    @property
    def signals(self):
        """runtime-signal's names in canonical order ([] for none)."""
        v = self.fields["runtime-signal"]
        names = [] if v == "none" else v.split()
        return [n for n, _ in SIGNALS if n in names]

    @property
    def fix_cu_c(self):
        v = self.fields["fix-cu"]
        return None if v == "none" else v

    @property
    def compiled_as(self):
        v = self.fields["compiled-as"]
        return None if v == "none" else v

    @property
    def title(self):
        return "%s: %s" % (self.fields["id"], self.fields["name"])

    @property
    def doc(self):
        """The Markdown page compiled into the table: a title line, then the
        file body after the front matter."""
        return "# %s\n\n%s" % (self.title, self.body)

    @property
    def description(self):
        return plain_paragraph(self.sections["Why is this bad?"])


class Errors:
    """Problems found, printed as `path:line: message`, files in the order
    they were read, each file's problems by line."""

    def __init__(self):
        self.items = []     # (file index, line, sequence, text)
        self.files = {}

    def add(self, path, line, msg):
        fi = self.files.setdefault(path, len(self.files))
        text = ("%s:%d: %s" % (path, line, msg)) if line else \
            ("%s: %s" % (path, msg))
        self.items.append((fi, line or 0, len(self.items), text))

    @property
    def lines(self):
        return [t for _, _, _, t in sorted(self.items)]

    def __len__(self):
        return len(self.items)

    def __bool__(self):
        return bool(self.items)


# ---- parsing and validation -----------------------------------------------

def read_text(path):
    with open(path, "rb") as f:
        data = f.read()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    text = data.decode("utf-8")   # UnicodeDecodeError is reported by caller
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_rule(path, errors):
    """Parse and validate one rule page; returns a Rule or None."""
    rule = Rule(path)
    try:
        text = read_text(path)
    except UnicodeDecodeError as e:
        errors.add(path, 1, "not valid UTF-8 (byte offset %d)" % e.start)
        return None
    except OSError as e:
        errors.add(path, 1, "cannot read: %s" % (e.strerror or e))
        return None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    n_errors = len(errors)

    # -- front matter --
    if not lines or lines[0].strip() != "---":
        errors.add(path, 1, "missing front matter: the file must start with a "
                   "'---' line, then one 'key: value' line per key, then '---'")
        return None
    end = None
    for i in range(1, len(lines)):
        if lines[i].strip() == "---":
            end = i
            break
    if end is None:
        errors.add(path, 1, "front matter is not closed: no second '---' line")
        return None
    for i in range(1, end):
        lineno = i + 1
        raw = lines[i]
        if not raw.strip():
            errors.add(path, lineno, "blank line in the front matter")
            continue
        m = KEY_RE.match(raw)
        if not m:
            errors.add(path, lineno, "expected 'key: value' in the front "
                       "matter, got %r" % raw)
            continue
        key, value = m.group(1), m.group(2).strip()
        if key not in KEYS:
            errors.add(path, lineno, "unknown key '%s' (known keys: %s)"
                       % (key, ", ".join(KEYS)))
            continue
        if key in rule.fields:
            errors.add(path, lineno, "duplicate key '%s' (first on line %d)"
                       % (key, rule.key_line[key]))
            continue
        if not value:
            errors.add(path, lineno, "key '%s' has an empty value" % key)
        rule.fields[key] = value
        rule.key_line[key] = lineno
    for key in KEYS:
        if key not in rule.fields:
            errors.add(path, end + 1, "missing key '%s' in the front matter%s"
                       % (key, (" (%s)" % MISSING_HINT[key])
                          if key in MISSING_HINT else ""))
    validate_fields(rule, errors)
    status = rule.fields.get("status")
    if status and status != "preview":
        for i, raw in enumerate(lines):
            if TODO_MARK in raw:
                errors.add(path, i + 1, "unfinished scaffold text '%s' in a "
                           "rule with status: %s: write it, or keep status: "
                           "preview" % (TODO_MARK, status))
                break

    # -- body and sections --
    body_lines = lines[end + 1:]
    while body_lines and not body_lines[0].strip():
        body_lines.pop(0)
        end += 1
    first_body_lineno = end + 2           # 1-based line of body_lines[0]
    rule.body = "\n".join(body_lines).rstrip("\n") + "\n"
    parse_sections(rule, body_lines, first_body_lineno, len(lines), errors)

    if len(errors) != n_errors:
        return None
    return rule


def validate_fields(rule, errors):
    """Check the values of the keys that are present (missing keys are
    reported by the caller)."""
    ln, path = rule.key_line, rule.path
    f = {k: v for k, v in rule.fields.items() if v}   # empty: reported
    stem = os.path.splitext(os.path.basename(path))[0]

    rid = f.get("id")
    id_ok = False
    if rid is not None:
        if not ID_RE.match(rid):
            errors.add(path, ln["id"], "id '%s' is not of the form CGnnn (CG, "
                       "then three digits, the first being the category)" % rid)
        elif rid != stem:
            errors.add(path, ln["id"], "id '%s' does not match the file name "
                       "'%s' (expected %s.md)"
                       % (rid, os.path.basename(path), rid))
        else:
            id_ok = True

    cat = f.get("category")
    if cat is not None:
        if cat not in CATEGORY_NUMBER:
            errors.add(path, ln["category"], "unknown category '%s' (one of: "
                       "%s)" % (cat, ", ".join(
                           "%s (%d)" % (n, d)
                           for d, n in sorted(CATEGORIES.items()))))
        elif id_ok and int(rid[2]) != CATEGORY_NUMBER[cat]:
            errors.add(path, ln["id"], "id %s does not match category '%s': "
                       "the first digit of the id is the category (CG%dnn is "
                       "'%s', CG%snn is '%s')"
                       % (rid, cat, CATEGORY_NUMBER[cat], cat, rid[2],
                          CATEGORIES[int(rid[2])]))

    name = f.get("name")
    if name is not None and not NAME_RE.match(name):
        errors.add(path, ln["name"], "name '%s' is not kebab-case (lower-case "
                   "words of a-z and 0-9 joined by single '-')" % name)

    sev = f.get("severity")
    if sev is not None and sev not in SEVERITIES:
        errors.add(path, ln["severity"], "severity '%s' is not one of: %s"
                   % (sev, "|".join(SEVERITIES)))

    st = f.get("status")
    if st is not None and st not in STATUSES:
        errors.add(path, ln["status"], "status '%s' is not one of: %s"
                   % (st, "|".join(STATUSES)))

    lv = f.get("languages")
    if lv is not None:
        langs = lv.split()
        bad = [l for l in langs if l not in LANGUAGES]
        if not langs or bad:
            errors.add(path, ln["languages"], "languages '%s' is not a "
                       "space-separated subset of '%s'"
                       % (lv, " ".join(LANGUAGES)))
        elif len(set(langs)) != len(langs):
            errors.add(path, ln["languages"], "languages '%s' lists a "
                       "language twice" % lv)
        else:   # canonical order in the outputs
            rule.fields["languages"] = " ".join(l for l in LANGUAGES
                                                if l in langs)

    since = f.get("since")
    if since is not None and not VERSION_RE.match(since):
        errors.add(path, ln["since"], "since '%s' is not a version like 0.1.0"
                   % since)

    s = f.get("summary")
    if s is not None:
        if len(s) > SUMMARY_MAX:
            errors.add(path, ln["summary"], "summary is %d characters long "
                       "(at most %d)" % (len(s), SUMMARY_MAX))
        if not s.endswith("."):
            errors.add(path, ln["summary"], "summary must be one sentence "
                       "ending with a period")
    fix = f.get("fix")
    if fix is not None and not fix.endswith("."):
        errors.add(path, ln["fix"], "fix must be one sentence ending with a "
                   "period")

    # languages after canonicalisation, when valid
    langs = rule.fields["languages"].split() \
        if lv is not None and rule.fields["languages"] in ("py", "cu", "py cu") \
        else None

    rt, rs = f.get("runtime"), f.get("runtime-signal")
    if rs is not None:
        names = rs.split()
        bad = [n for n in names if n not in SIGNAL_C]
        if rs == "none":
            pass
        elif "none" in names:
            errors.add(path, ln["runtime-signal"], "runtime-signal '%s': "
                       "'none' stands alone" % rs)
        elif bad:
            errors.add(path, ln["runtime-signal"], "unknown runtime signal "
                       "'%s' (known: %s, or none)"
                       % (bad[0], ", ".join(n for n, _ in SIGNALS)))
        elif len(set(names)) != len(names):
            errors.add(path, ln["runtime-signal"], "runtime-signal '%s' "
                       "names a signal twice" % rs)
        elif all(n in SIGNAL_MODIFIERS for n in names):
            errors.add(path, ln["runtime-signal"], "runtime-signal '%s' "
                       "names no observation, only where one may be (%s)"
                       % (rs, ", ".join(SIGNAL_MODIFIERS)))
        if rt is not None and (rs == "none") != (rt == "none"):
            if rs == "none":
                errors.add(path, ln["runtime-signal"], "runtime-signal is "
                           "'none' but runtime (line %d) names a signal: "
                           "list the observations that confirm it, or set "
                           "both to none" % ln["runtime"])
            else:
                errors.add(path, ln["runtime-signal"], "runtime-signal is "
                           "'%s' but runtime (line %d) is 'none': a "
                           "static-only rule has runtime-signal: none"
                           % (rs, ln["runtime"]))

    fc = f.get("fix-cu")
    if fc is not None and fc != "none":
        if not fc.endswith("."):
            errors.add(path, ln["fix-cu"], "fix-cu must be one sentence "
                       "ending with a period, or none")
        if langs is not None and langs != ["py", "cu"]:
            errors.add(path, ln["fix-cu"], "fix-cu is for rules of both "
                       "languages (languages: py cu), whose fix speaks "
                       "PyTorch; this rule's fix already fits its language: "
                       "write none")

    ca = f.get("compiled-as")
    if ca is not None and ca != "none":
        if not ID_RE.match(ca):
            errors.add(path, ln["compiled-as"], "compiled-as '%s' is not a "
                       "rule id (CGnnn) or none" % ca)
        elif langs is not None and "py" not in langs:
            errors.add(path, ln["compiled-as"], "compiled-as is for Python "
                       "rules (torch.compile never sees C/C++/CUDA code): "
                       "write none")


_SKIP = object()    # inside a rejected section: its lines are not checked


def parse_sections(rule, body_lines, first_lineno, total_lines, errors):
    path = rule.path
    found = []          # (heading, lineno) in file order
    current = None
    fence = None        # (marker char, length, lineno) while inside a fence
    for i, raw in enumerate(body_lines):
        lineno = first_lineno + i
        fm = FENCE_RE.match(raw)
        if fence is not None:
            if fm and fm.group(1)[0] == fence[0] and \
                    len(fm.group(1)) >= fence[1] and not fm.group(2).strip():
                fence = None
            if current not in (None, _SKIP):
                rule.sections[current].append(raw)
            continue
        if fm:
            fence = (fm.group(1)[0], len(fm.group(1)), lineno)
            if current not in (None, _SKIP):
                rule.sections[current].append(raw)
            elif current is None:
                errors.add(path, lineno, "text before the first '## %s' "
                           "section" % SECTIONS[0])
            continue
        hm = HEADING_RE.match(raw)
        if hm and len(hm.group(1)) <= 2:
            text = (hm.group(2) or "").strip()
            if len(hm.group(1)) == 1:
                errors.add(path, lineno, "level-1 heading '%s': the title "
                           "'# ID: name' is generated; use '##' sections"
                           % raw.strip())
                continue
            if text not in SECTIONS:
                errors.add(path, lineno, "unknown section '## %s' (the "
                           "sections are, in order: %s)"
                           % (text, ", ".join("'## %s'" % s for s in SECTIONS)))
                current = _SKIP
                continue
            if text in rule.sections:
                first = [l for h, l in found if h == text][0]
                errors.add(path, lineno, "duplicate section '## %s' (first on "
                           "line %d)" % (text, first))
                current = _SKIP
                continue
            found.append((text, lineno))
            rule.sections[text] = []
            current = text
            continue
        if current is None:
            if raw.strip():
                errors.add(path, lineno, "text before the first '## %s' "
                           "section" % SECTIONS[0])
        elif current is not _SKIP:
            rule.sections[current].append(raw)
    if fence is not None:
        errors.add(path, fence[2], "code fence opened here is never closed")

    # missing sections: say where they belong
    present = {h: l for h, l in found}
    for idx, sec in enumerate(SECTIONS):
        if sec in present:
            continue
        after = [present[s] for s in SECTIONS[idx + 1:] if s in present]
        if after:
            where = "before line %d" % min(after)
            at = min(after)
        else:
            where = "at the end of the file"
            at = total_lines
        errors.add(path, at, "missing section '## %s' (expected %s)"
                   % (sec, where))
    # order
    for (prev, _), (cur, lineno) in zip(found, found[1:]):
        if SECTIONS.index(cur) < SECTIONS.index(prev):
            errors.add(path, lineno, "section '## %s' is out of order: it "
                       "must come before '## %s' (line %d); the order is %s"
                       % (cur, prev, present[prev],
                          ", ".join("'## %s'" % s for s in SECTIONS)))
    # empty
    for sec, lineno in found:
        if not any(l.strip() for l in rule.sections[sec]):
            errors.add(path, lineno, "section '## %s' is empty" % sec)


def load_rules(rules_dir, errors):
    try:
        names = os.listdir(rules_dir)
    except OSError as e:
        errors.add(rules_dir, None, "cannot list the rules directory: %s"
                   % (e.strerror or e))
        return []
    paths = sorted(os.path.join(rules_dir, n) for n in names
                   if n.startswith("CG") and n.endswith(".md"))
    if not paths:
        errors.add(rules_dir, None, "no rule files (CG*.md) found")
        return []
    rules = []
    for p in paths:
        stem = os.path.basename(p)[:-3]
        if not ID_RE.match(stem):
            errors.add(p, 1, "rule files are named CGnnn.md (CG, then three "
                       "digits); '%s' is not" % os.path.basename(p))
            continue
        r = parse_rule(p, errors)
        if r is not None:
            rules.append(r)
    rules.sort(key=lambda r: r.id)
    check_compiled_as(rules, paths, errors)
    seen = {}
    for r in rules:
        if r.name in seen:
            errors.add(r.path, r.key_line["name"], "name '%s' is already used "
                       "by %s" % (r.name, seen[r.name]))
        else:
            seen[r.name] = r.id
    return rules


def check_compiled_as(rules, paths, errors):
    """compiled-as names a Python rule that is reported as itself there."""
    by_id = {r.id: r for r in rules}
    pages = set(os.path.basename(p)[:-3] for p in paths)
    for r in rules:
        to = r.compiled_as
        if to is None:
            continue
        line = r.key_line["compiled-as"]
        target = by_id.get(to)
        if target is None:
            if to not in pages:
                errors.add(r.path, line, "compiled-as names %s, which has no "
                           "page (%s.md)" % (to, to))
            continue            # its page has problems of its own
        if "py" not in target.languages.split():
            errors.add(r.path, line, "compiled-as names %s, which is not a "
                       "Python rule (languages: %s)" % (to, target.languages))
        elif target.compiled_as != to:
            errors.add(r.path, line, "compiled-as names %s, which is not "
                       "reported as itself under reduce-overhead (its "
                       "compiled-as is %s): name the rule it ends as"
                       % (to, target.fields["compiled-as"]))


# ---- text helpers -----------------------------------------------------------

CODE_SPAN_RE = re.compile(r"(`+)(.+?)\1", re.S)
LINK_RE = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")
AUTOLINK_RE = re.compile(r"<(https?://[^>\s]+)>")
STRONG_RE = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
EM_RE = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")


def plain_paragraph(lines):
    """A section's Markdown as one plain-text paragraph: blank lines, list
    bullets, quote marks, fences and emphasis go; code spans stay verbatim."""
    words = []
    for raw in lines:
        s = raw.strip()
        if not s or FENCE_RE.match(raw):
            continue
        s = re.sub(r"^(?:[-*+]|[0-9]+[.)])\s+", "", s)   # list bullets
        s = re.sub(r"^>\s?", "", s)                       # block quotes
        words.append(s)
    text = " ".join(words)
    out, pos = [], 0
    for m in CODE_SPAN_RE.finditer(text):
        out.append(_plain_inline(text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_plain_inline(text[pos:]))
    return re.sub(r"\s+", " ", "".join(out)).strip()


def _plain_inline(s):
    s = LINK_RE.sub(lambda m: "%s (%s)" % (m.group(1), m.group(2)), s)
    s = AUTOLINK_RE.sub(r"\1", s)
    s = STRONG_RE.sub(r"\2", s)
    s = EM_RE.sub(r"\1", s)
    return s


def c_escape_tokens(s):
    """The C escape of each character of s (UTF-8 bytes beyond ASCII as
    three-digit octal escapes, which never swallow a following digit)."""
    toks = []
    prev = ""
    for ch in s:
        if ch == "\\":
            t = "\\\\"
        elif ch == '"':
            t = '\\"'
        elif ch == "\n":
            t = "\\n"
        elif ch == "\t":
            t = "\\t"
        elif ch == "?":
            t = "\\?" if prev == "?" else "?"    # no trigraphs: ?? -> ?\?
        elif " " <= ch <= "~":
            t = ch
        else:
            t = "".join("\\%03o" % b for b in ch.encode("utf-8"))
        toks.append(t)
        prev = ch
    return toks


def c_string(s, indent, width=100):
    """A C string literal for s (None -> NULL), split over several lines
    after each newline and before `width` columns."""
    if s is None:
        return "NULL"
    toks = c_escape_tokens(s)
    avail = max(20, width - indent - 2)
    pieces, cur, cur_len = [], [], 0
    last_space = -1     # index in cur after the last space
    for t in toks:
        cur.append(t)
        cur_len += len(t)
        if t == " ":
            last_space = len(cur)
        if t == "\\n":
            pieces.append("".join(cur))
            cur, cur_len, last_space = [], 0, -1
        elif cur_len >= avail:
            if 0 < last_space < len(cur):      # break after a space
                pieces.append("".join(cur[:last_space]))
                cur = cur[last_space:]
            else:
                pieces.append("".join(cur))
                cur = []
            cur_len = sum(len(x) for x in cur)
            last_space = -1
            for i, x in enumerate(cur):
                if x == " ":
                    last_space = i + 1
    if cur or not pieces:
        pieces.append("".join(cur))
    pad = " " * indent
    return ("\n" + pad).join('"%s"' % p for p in pieces)


def md_cell(s):
    return s.replace("|", "\\|")


def github_anchor(title):
    a = title.strip().lower()
    a = re.sub(r"[^\w\- ]", "", a)
    return a.replace(" ", "-")


# ---- generators ---------------------------------------------------------------

BANNER = ("Generated by rules/gen_rules.py from rules/CG*.md: do not edit.\n"
          "Edit the rule pages and rebuild instead.")


def gen_header(rules):
    out = ["/* rule_ids.h - the rule ids as an enum, in id order.",
           " *",
           " * %s */" % BANNER.replace("\n", "\n * "),
           "#ifndef CG_RULE_IDS_H",
           "#define CG_RULE_IDS_H",
           "",
           "enum cg_rule_id {"]
    for i, r in enumerate(rules):
        out.append("    CG_R_%s = %d,%s/* %s */"
                   % (r.id, i, " " * max(1, 6 - len(str(i))), r.name))
    out.append("    CG_RULE_COUNT = %d" % len(rules))
    out.append("};")
    out.append("")
    out.append("#endif /* CG_RULE_IDS_H */")
    return "\n".join(out) + "\n"


def gen_table(rules):
    out = ["/* rules_table.c - the rule catalog (see core/rules.h).",
           " *",
           " * %s */" % BANNER.replace("\n", "\n * "),
           '#include "core/rules.h"',
           "",
           "/* The doc pages are longer than the 4095 characters ISO C requires",
           " * compilers to support in one literal; GCC and Clang take any length. */",
           "#if defined(__GNUC__)",
           '#pragma GCC diagnostic ignored "-Woverlength-strings"',
           "#endif",
           "",
           "const cg_rule cg_rules[] = {"]
    ind = 8
    for r in rules:
        f = r.fields
        out.append("    [CG_R_%s] = {" % r.id)
        field_vals = [
            ("id", c_string(f["id"], ind)),
            ("name", c_string(f["name"], ind)),
            ("category", str(r.category_number)),
            ("category_name", c_string(f["category"], ind)),
            ("severity", SEVERITIES[f["severity"]]),
            ("languages", c_string(f["languages"], ind)),
            ("status", c_string(f["status"], ind)),
            ("since", c_string(f["since"], ind)),
            ("runtime", c_string(r.runtime_c, ind)),
            ("runtime_signals", " | ".join(SIGNAL_C[n] for n in r.signals)
             or "0"),
            ("summary", c_string(f["summary"], ind)),
            ("description", c_string(r.description, ind)),
            ("fix", c_string(f["fix"], ind)),
            ("fix_cu", c_string(r.fix_cu_c, ind)),
            ("compiled_as", "CG_R_%s" % r.compiled_as if r.compiled_as
             else "-1"),
            ("doc", c_string(r.doc, ind)),
        ]
        for name, val in field_vals:
            if "\n" in val:
                out.append("        .%s =" % name)
                out.append("        " + val + ",")
            else:
                out.append("        .%s = %s," % (name, val))
        out.append("    },")
    out.append("};")
    out.append("")
    out.append("const size_t cg_rule_count = %d;" % len(rules))
    out.append("")
    out.append("_Static_assert(sizeof cg_rules / sizeof cg_rules[0] == "
               "CG_RULE_COUNT,")
    out.append('               "rule_ids.h and rules_table.c disagree: '
               'regenerate both");')
    return "\n".join(out) + "\n"


def shift_headings(md):
    """Demote every Markdown heading outside code fences by one level."""
    out, fence = [], None
    for raw in md.split("\n"):
        fm = FENCE_RE.match(raw)
        if fence is not None:
            if fm and fm.group(1)[0] == fence[0] and \
                    len(fm.group(1)) >= fence[1] and not fm.group(2).strip():
                fence = None
        elif fm:
            fence = (fm.group(1)[0], len(fm.group(1)))
        elif re.match(r"^ {0,3}#{1,5}[ \t]", raw):
            raw = raw.replace("#", "##", 1)
        out.append(raw)
    return "\n".join(out)


def gen_docs(rules):
    by_id = {r.id: r for r in rules}
    out = ["# " + DOCS_TITLE,
           "",
           "<!-- %s -->" % BANNER.replace("\n", " "),
           "",
           "cglint reports a rule only inside a CUDA graph capture region "
           "(`with torch.cuda.graph(g)`, `g.capture_begin()` ... "
           "`g.capture_end()`, `torch.cuda.make_graphed_callables`) or in code "
           "reached from one through calls. *Runtime* says whether the "
           "runtime harness can confirm a finding; `cglint --explain ID` "
           "prints one page.",
           "",
           "| ID | Name | Category | Severity | Languages | Runtime | Summary |",
           "|---|---|---|---|---|---|---|"]
    for r in rules:
        out.append("| [%s](#%s) | `%s` | %d %s | %s | %s | %s | %s |"
                   % (r.id, github_anchor(r.title), r.name, r.category_number,
                      r.category, r.severity, r.languages,
                      "no" if r.runtime_c is None else "yes",
                      md_cell(r.summary)))
    out.append("")
    for r in rules:
        out.append("## " + r.title)
        out.append("")
        meta = ("Category: %d %s · Severity: %s · Languages: %s · Status: %s "
                "· Since: %s"
                % (r.category_number, r.category, r.severity, r.languages,
                   r.status, r.since))
        out.append("*%s*" % meta)
        out.append("")
        out.append("> %s" % r.summary)
        out.append("")
        out.append("Runtime signal: %s" %
                   (r.runtime if r.runtime_c is not None
                    else "none (static only)"))
        out.append("")
        if r.fix_cu_c is not None:
            out.append("C/C++/CUDA fix: %s" % r.fix_cu_c)
            out.append("")
        if r.compiled_as not in (None, r.id):
            to = by_id[r.compiled_as]
            out.append("Under `torch.compile(mode=\"reduce-overhead\")`: "
                       "reported as [%s](#%s) instead."
                       % (to.id, github_anchor(to.title)))
            out.append("")
        out.append(shift_headings(r.body).rstrip("\n"))
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"


# ---- output -------------------------------------------------------------------

def write_if_changed(path, content):
    """Write content to path unless it already holds exactly that; atomic."""
    data = content.encode("utf-8")
    try:
        with open(path, "rb") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".",
                               dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return True


def main(argv=None):
    ap = argparse.ArgumentParser(
        description="Generate cglint's rule table and docs from rules/CG*.md.")
    ap.add_argument("--rules-dir", required=True,
                    help="directory holding the CGnnn.md rule pages")
    ap.add_argument("--header", metavar="FILE",
                    help="write the rule id enum (rule_ids.h)")
    ap.add_argument("--table", metavar="FILE",
                    help="write the C rule table (rules_table.c)")
    ap.add_argument("--docs", metavar="FILE",
                    help="write the rule documentation (docs/rules.md)")
    ap.add_argument("--check-docs", metavar="FILE",
                    help="exit 1 if FILE is not what --docs would write")
    args = ap.parse_args(argv)

    errors = Errors()
    rules = load_rules(args.rules_dir, errors)
    if errors:
        for line in errors.lines:
            print(line, file=sys.stderr)
        print("gen_rules.py: %d problem%s in %s; nothing written"
              % (len(errors.lines), "" if len(errors.lines) == 1 else "s",
                 args.rules_dir), file=sys.stderr)
        return 1

    try:
        if args.header:
            write_if_changed(args.header, gen_header(rules))
        if args.table:
            write_if_changed(args.table, gen_table(rules))
        if args.docs:
            write_if_changed(args.docs, gen_docs(rules))
    except OSError as e:
        print("gen_rules.py: cannot write %s: %s"
              % (e.filename, e.strerror or e), file=sys.stderr)
        return 1

    if args.check_docs:
        want = gen_docs(rules)
        try:
            with open(args.check_docs, "rb") as f:
                have = f.read()
        except OSError:
            have = None
        if have != want.encode("utf-8"):
            script = sys.argv[0] if sys.argv and sys.argv[0] else \
                "rules/gen_rules.py"
            print("%s is stale: run python3 %s --rules-dir %s --docs %s"
                  % (args.check_docs, shlex.quote(script),
                     shlex.quote(args.rules_dir),
                     shlex.quote(args.check_docs)), file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
