"""`cglint run` end to end without a GPU: the observer (runtime/python) runs
inside real Python processes against a stand-in for PyTorch
(tests/runtime/fake_torch) that imitates capture, its errors and replays;
cglint joins the events to the static findings of tests/runtime/programs.

  python3 tests/runtime/test_run.py CGLINT REPO

Each program marks with `# expect: RULE` what the static analysis finds;
these tests check the verdict the run gives it, the evidence, and that the
program's own stdout, stderr and exit status pass through."""
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CGLINT = REPO = None


def progs(*p):
    return os.path.join(REPO, "tests", "runtime", "programs", *p)


class RunTests(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cglint-run-test.")
        self.env = dict(os.environ)
        self.env["PYTHONPATH"] = os.path.join(REPO, "tests", "runtime", "fake_torch")
        self.env.pop("CGLINT_EVENTS_DIR", None)
        self.env.pop("FAKE_TORCH_NO_GPU", None)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_cglint(self, args, env=None, cwd=None):
        p = subprocess.run([CGLINT, "run"] + args, cwd=cwd or progs(), env=env or self.env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        return p.returncode, p.stdout.decode(), p.stderr.decode()

    def run_json(self, program, extra=(), static=None, env=None):
        out = os.path.join(self.tmp, "report.json")
        static = [program] if static is None else static
        rc, so, se = self.run_cglint(list(extra) + ["-f", "json", "-o", out] + static +
                                     ["--", sys.executable, program], env=env)
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        return rc, so, se, doc

    def finding(self, doc, rule):
        hits = [f for f in doc["findings"] if f["rule"] == rule]
        self.assertEqual(len(hits), 1, "findings of %s: %r" % (rule, doc["findings"]))
        return hits[0]

    # ---- the HTML report (issue 15 item 11) --------------------------------------
    def test_html_report(self):
        """One self-contained page: well-formed, every finding with its
        verdict, each region with captures, replays and replay time, no
        script and no URL; and, where Debian's chromium is installed, a
        headless screenshot of it that is not blank."""
        import html.parser
        static = ["scalar.py", "host_io.py", "item.py", "recapture.py", "rebind.py"]
        page = os.path.join(self.tmp, "report.html")
        rc, so, se = self.run_cglint(["-q", "-f", "html", "-o", page] + static + ["--", sys.executable, "recapture.py"])
        self.assertEqual(rc, 0, se)
        rc, so, se, doc = self.run_json("recapture.py", static=static)
        text = open(page, encoding="utf-8").read()

        void = {"meta", "br", "rect", "img", "hr", "input", "link"}
        class Check(html.parser.HTMLParser):
            def __init__(self):
                super().__init__()
                self.stack, self.bad, self.tags = [], [], []
            def handle_starttag(self, tag, attrs):
                self.tags.append((tag, dict(attrs)))
                if tag not in void:
                    self.stack.append(tag)
            def handle_startendtag(self, tag, attrs):
                self.tags.append((tag, dict(attrs)))
            def handle_endtag(self, tag):
                if tag in void:
                    return
                if not self.stack or self.stack[-1] != tag:
                    self.bad.append("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
                else:
                    self.stack.pop()
        c = Check()
        c.feed(text)
        c.close()
        self.assertEqual(c.bad, [])
        self.assertEqual(c.stack, [], "unclosed elements")
        self.assertTrue(text.startswith("<!DOCTYPE html>"))
        # self-contained
        self.assertNotIn("<script", text)
        self.assertNotRegex(text, r"(?i)https?://|//[a-z0-9.-]+\.[a-z]{2,}/")
        for tag, attrs in c.tags:
            for a in ("src", "href", "srcset", "data"):
                self.assertNotIn(a, attrs, "<%s %s=...> loads something" % (tag, a))
        # every finding, with its verdict and evidence
        self.assertEqual(len(doc["findings"]), 5)
        for f in doc["findings"]:
            anchor = 'id="f-%s-%d-%d"' % (f["rule"], f["line"], f["column"])
            self.assertIn(anchor, text)
            block = text.split(anchor, 1)[1].split('<div class="finding"', 1)[0]
            self.assertIn(f["verdict"].replace("_", " "), block)
            self.assertIn(f["evidence"], html.unescape(block))
        # the region: captures, replays, replay time, in an inline SVG chart
        reg = doc["run"]["regions"][0]
        self.assertIn("<code>recapture.py:%d</code>" % reg["line"], text)
        self.assertIn("%.3f ms" % reg["mean_replay_ms"], text)
        self.assertIn(">%d</text>" % reg["replays"], text)
        self.assertEqual(text.count("<svg "), len(doc["run"]["regions"]) + 1)
        chromium = shutil.which("chromium") or shutil.which("chromium-browser")
        if not chromium:
            print("\nchromium is not installed (Debian package chromium): the screenshot of the HTML report is skipped")
            return
        png = os.path.join(self.tmp, "report.png")
        subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        "--window-size=1200,1500", "--screenshot=" + png, "file://" + page],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120, cwd=self.tmp)
        self.assertTrue(os.path.exists(png), "chromium wrote no screenshot")
        data = open(png, "rb").read()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        # a rendered page, not a blank one: a blank 1200x1500 PNG compresses to a few KB
        self.assertGreater(len(data), 20000)

    # ---- the step run eagerly beside its replays (issue 15 item 11) -------------
    def eager_run(self, program):
        empty = os.path.join(self.tmp, "none.json")
        with open(empty, "w") as f:   # no static findings: runs where cglint has no analyzers too
            json.dump({"schema_version": 1, "tool": {"name": "cglint"}, "findings": []}, f)
        rc, so, se, doc = self.run_json(program, extra=["--findings", empty], static=[])
        self.assertEqual(rc, 0, se)
        self.assertEqual(so, "done\n")
        return doc["run"]["regions"][0]

    def test_eager_step_beside_replays(self):
        """The warm-up's calls of what the capture's body calls are timed with
        CUDA events (the fake torch's say 0.25 ms each): the first call of each
        is left out, the medians of step and loss are summed.  sys.monitoring
        (Python 3.12) is what sees those calls: older Pythons report none."""
        reg = self.eager_run("eager_step.py")
        self.assertEqual((reg["captures"], reg["replays"], reg["mean_replay_ms"]), (1, 5, 0.25))
        if sys.version_info < (3, 12):
            self.assertEqual((reg["eager_step_ms"], reg["eager_step"], reg["eager_calls"]), (None, None, 0))
            print("\nPython %d.%d has no sys.monitoring: the eager step time is not measured; "
                  "this test's positive half needs Python 3.12" % sys.version_info[:2])
            return
        self.assertEqual((reg["eager_step"], reg["eager_calls"], reg["eager_step_ms"]), ("step + loss", 2, 0.5))
        out = os.path.join(self.tmp, "report.txt")
        rc, so, se = self.run_cglint(["--findings", os.path.join(self.tmp, "none.json"), "-o", out, "--",
                                      sys.executable, "eager_step.py"])
        with open(out, encoding="utf-8") as f:
            self.assertIn("mean replay 0.250 ms, the step run eagerly (step + loss) 0.500 ms: replays 2.0x faster",
                          f.read())

    def test_no_eager_step_without_one(self):
        """A capture of inline code calls no function: no step, no eager time;
        nor when the step never ran outside a capture (clean.py has no warm-up),
        nor when the capture's body does work of its own besides calling the
        step (eager_body.py: the step's time is not the replay's work)."""
        for program in ("eager_inline.py", "clean.py", "eager_body.py"):
            empty = os.path.join(self.tmp, "none.json")
            with open(empty, "w") as f:
                json.dump({"schema_version": 1, "tool": {"name": "cglint"}, "findings": []}, f)
            rc, so, se, doc = self.run_json(program, extra=["--findings", empty], static=[])
            reg = doc["run"]["regions"][0]
            self.assertEqual((reg["eager_step_ms"], reg["eager_step"], reg["eager_calls"]), (None, None, 0), program)

    # ---- verdicts -------------------------------------------------------------
    def test_item_confirmed_with_root_error(self):
        rc, so, se, doc = self.run_json("item.py")
        self.assertEqual(rc, 1)                                   # the program's own status
        self.assertIn("operation failed due to a previous error during capture", se)  # its traceback
        f = self.finding(doc, "CG101")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("cudaErrorStreamCaptureUnsupported", f["evidence"])
        self.assertIn("at item.py:7", f["evidence"])
        self.assertEqual(doc["run"]["exit_code"], 1)
        self.assertEqual(doc["run"]["regions"][0]["failed_captures"], 1)

    def test_host_io_lines_at_capture_and_stdout_untouched(self):
        rc, so, se, doc = self.run_json("host_io.py")
        self.assertEqual(rc, 0)
        self.assertEqual(so, "captured one step\ndone\n")
        f = self.finding(doc, "CG301")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("ran 1 time at capture, 0 times in 5 replays", f["evidence"])
        r = doc["run"]["regions"][0]
        self.assertEqual((r["path"], r["line"], r["kind"], r["captures"], r["replays"]),
                         ("host_io.py", 5, "torch.cuda.graph", 1, 5))
        self.assertEqual(r["mean_replay_ms"], 0.25)

    def test_scalar_changed_before_replay(self):
        rc, so, se, doc = self.run_json("scalar.py")
        f = self.finding(doc, "CG304")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("`scale` was 0.5 at capture, 1 at replay 1", f["evidence"])

    def test_rebound_static_input(self):
        rc, so, se, doc = self.run_json("rebind.py")
        f = self.finding(doc, "CG504")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("`static_x` held another tensor at replay 1", f["evidence"])

    def test_hyperparameter_changed(self):
        rc, so, se, doc = self.run_json("hparam.py")
        f = self.finding(doc, "CG606")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("param_groups[0]['lr']` was 0.1 at capture, 0.05 at replay 1", f["evidence"])

    def test_recapture_in_loop(self):
        rc, so, se, doc = self.run_json("recapture.py")
        f = self.finding(doc, "CG705")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("captured 5 times", f["evidence"])

    def test_begin_on_default_stream(self):
        rc, so, se, doc = self.run_json("begin_default.py")
        self.assertEqual(rc, 1)
        f = self.finding(doc, "CG404")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("non-default stream", f["evidence"])

    def test_graphed_callables_with_hooks(self):
        rc, so, se, doc = self.run_json("hooks.py")
        f = self.finding(doc, "CG704")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("hooks registered", f["evidence"])

    def test_clean_program(self):
        rc, so, se, doc = self.run_json("clean.py")
        self.assertEqual(rc, 0)
        self.assertEqual(doc["findings"], [])
        self.assertEqual(so, "clean 2.0\n")
        r = doc["run"]["regions"][0]
        self.assertEqual((r["captures"], r["failed_captures"], r["replays"]), (1, 0, 3))

    def test_not_exercised(self):
        rc, so, se, doc = self.run_json("outside.py")
        f = self.finding(doc, "CG101")
        self.assertEqual(f["verdict"], "not_exercised")
        self.assertEqual(f["evidence"], "its line never ran inside a capture")

    def test_found_at_runtime_without_static_findings(self):
        # no static analysis of item.py: the run alone finds the hazard
        rc, so, se, doc = self.run_json("item.py", static=["clean.py"])
        f = self.finding(doc, "CG101")
        self.assertEqual(f["verdict"], "found_at_runtime")
        self.assertEqual((f["path"], f["line"]), ("item.py", 7))

    def test_child_processes_observed(self):
        rc, so, se, doc = self.run_json("parent.py", static=["host_io.py"])
        self.assertEqual(rc, 0)
        self.assertEqual(doc["run"]["processes"], 2)
        self.assertEqual(self.finding(doc, "CG301")["verdict"], "confirmed")

    def test_text_report_goes_to_stderr(self):
        rc, so, se = self.run_cglint(["host_io.py", "--", sys.executable, "host_io.py"])
        self.assertEqual(so, "captured one step\ndone\n")
        self.assertIn("= verdict: confirmed: ran 1 time at capture", se)
        self.assertIn("host_io.py:5 (torch.cuda.graph): 1 capture, 5 replays", se)

    def test_strict(self):
        rc, so, se = self.run_cglint(["--strict", "host_io.py", "--", sys.executable, "host_io.py"])
        self.assertEqual(rc, 1)
        rc, so, se = self.run_cglint(["--strict", "clean.py", "--", sys.executable, "clean.py"])
        self.assertEqual(rc, 0)

    # ---- 1. every failure explained ----------------------------------------------
    def findings_at(self, doc, path):
        return [f for f in doc["findings"] if f["path"] == path]

    def test_unmapped_failure_is_the_catch_all_at_the_users_line(self):
        rc, so, se, doc = self.run_json("shape_error.py")
        self.assertEqual(rc, 1)
        f = self.finding(doc, "CG002")
        self.assertEqual(f["verdict"], "found_at_runtime")
        self.assertEqual((f["path"], f["line"]), ("shape_error.py", 7))
        self.assertIn("must match the size of tensor b", f["evidence"])
        self.assertNotIn("no rule of this catalog matches", se)
        self.assertEqual(f["capture"]["line"], 6)

    def test_failure_in_every_process_of_the_run(self):
        rc, so, se, doc = self.run_json("torchrun_like.py", static=["clean.py"])
        self.assertEqual(doc["run"]["processes"], 3)
        f = self.finding(doc, "CG002")
        self.assertEqual((f["path"], f["line"]), ("rank_fails.py", 10))
        self.assertIn("in 2 processes", f["evidence"])
        self.assertEqual(doc["errors"], [])

    def test_failure_on_a_thread_without_python_frames(self):
        # NCCL's watchdog querying an event during a global-mode capture: CUPTI
        # sees the failing call with no Python stack; capture_end says only
        # "invalidated".  The finding lands on the capture site, as CG708.
        rc, so, se, doc = self.run_json("watchdog.py", static=["clean.py"])
        self.assertEqual(rc, 0)
        f = self.finding(doc, "CG708")
        self.assertEqual(f["verdict"], "found_at_runtime")
        self.assertEqual((f["path"], f["line"]), ("watchdog.py", 26))
        self.assertIn("cudaEventQuery -> cudaErrorStreamCaptureUnsupported", f["evidence"])
        self.assertEqual([x["rule"] for x in doc["findings"]], ["CG708"])   # the invalidation is its echo
        self.assertEqual(doc["errors"], [])

    def test_capture_never_ended(self):
        rc, so, se, doc = self.run_json("never_ended.py", static=["clean.py"])
        self.assertEqual(rc, 1)
        f = self.finding(doc, "CG002")
        self.assertEqual((f["path"], f["line"]), ("never_ended.py", 9))
        self.assertIn("ValueError: bad batch", f["evidence"])
        self.assertEqual(doc["run"]["regions"][0]["failed_captures"], 1)

    def test_lines_of_helpers_that_ran_eagerly_before_the_capture(self):
        # sys.monitoring (3.12+): PY_START stays on between captures; a user
        # function first started outside a capture (rarely, or often enough
        # to be disabled) still has its lines recorded when a capture runs it
        rc, so, se, doc = self.run_json("helper_eager_first.py")
        self.assertEqual(rc, 0, se)
        got = sorted((f["line"], f["verdict"], f["evidence"]) for f in doc["findings"] if f["rule"] == "CG301")
        self.assertEqual(got, [(5, "confirmed", "ran 1 time at capture, 0 times in 2 replays (a replay runs no Python)"),
                               (10, "confirmed", "ran 1 time at capture, 0 times in 2 replays (a replay runs no Python)")])

    def test_python_c_error_is_placed_in_the_command(self):
        # `python -c CODE`: no user file; the failure is placed at "<string>",
        # line N of CODE (with that line's text), never in torch's own files
        code = ("import torch\nx = torch.ones(4, device='cuda')\nw = torch.ones(8, device='cuda')\n"
                "g = torch.cuda.CUDAGraph()\nwith torch.cuda.graph(g):\n    h = x * w\n")
        out = os.path.join(self.tmp, "report.json")
        rc, so, se = self.run_cglint(["-f", "json", "-o", out, "--findings", self.empty_findings(),
                                      "--", sys.executable, "-c", code])
        with open(out) as f:
            doc = json.load(f)
        f = self.finding(doc, "CG002")
        self.assertEqual((f["path"], f["line"]), ("<string>", 6))
        self.assertIn("at <string>:6", f["evidence"])
        self.assertEqual((f["capture"]["path"], f["capture"]["line"]), ("<string>", 5))
        self.assertEqual(doc["run"]["regions"][0]["path"], "<string>")
        rc, so, se = self.run_cglint(["--findings", self.empty_findings(), "--", sys.executable, "-c", code])
        self.assertIn("6 |     h = x * w", so + se)   # the line's text, from the command

    def empty_findings(self):
        p = os.path.join(self.tmp, "empty.json")
        with open(p, "w") as f:
            json.dump({"schema_version": 1, "tool": {"name": "cglint"}, "findings": []}, f)
        return p

    def test_catch_all_can_be_ignored(self):
        rc, so, se, doc = self.run_json("shape_error.py", extra=["--ignore", "CG002"])
        self.assertEqual(doc["findings"], [])

    # ---- 2. no false alarms -------------------------------------------------------
    def test_one_graph_per_bucket_is_not_recapture(self):
        rc, so, se, doc = self.run_json("buckets.py")
        self.assertEqual(rc, 0)
        self.assertEqual(doc["findings"], [])
        r = doc["run"]["regions"][0]
        self.assertEqual((r["line"], r["captures"], r["replays"]), (11, 5, 24))

    def test_graphed_callables_over_several_modules(self):
        rc, so, se, doc = self.run_json("graphed_modules.py")
        self.assertEqual(rc, 0)
        self.assertEqual(doc["findings"], [])
        self.assertEqual(doc["run"]["regions"][0]["captures"], 6)

    def test_same_graph_recaptured_while_replayed(self):
        rc, so, se, doc = self.run_json("same_graph.py")
        f = self.finding(doc, "CG705")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("captured 3 times at this site, replayed 12 times; 2 of the captures re-captured the same "
                      "graph object", f["evidence"])

    def test_capture_in_a_loop_that_ran_without_recapture(self):
        # CG705 as a static pass may report it at the capture's own line (a
        # capture in a loop): the capture ran, nothing was re-captured while
        # replayed, so the verdict is "not reproduced", never "not exercised"
        findings = os.path.join(self.tmp, "static.json")
        with open(findings, "w") as f:
            json.dump({"schema_version": 1, "tool": {"name": "cglint", "version": "test"},
                       "findings": [{"rule": "CG705", "path": "config_sweep.py", "line": 8, "column": 5,
                                     "end_line": 8, "end_column": 32, "message": "capture in a loop"}]}, f)
        out = os.path.join(self.tmp, "report.json")
        rc, so, se = self.run_cglint(["--findings", findings, "-f", "json", "-o", out, "--",
                                      sys.executable, "config_sweep.py"])
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        f = self.finding(doc, "CG705")
        self.assertEqual(f["verdict"], "not_reproduced", f)
        self.assertIn("the capture at config_sweep.py:8 ran 2 times and was replayed 6 times", f["evidence"])

    def test_name_rebound_inside_the_capture_is_its_output(self):
        # PyTorch's test_graph_capture_reset_recapture: `b = b + 1` inside the
        # capture; `b` then holds the output, not a stale input (no CG504)
        rc, so, se, doc = self.run_json("rebound_inside.py")
        self.assertEqual(rc, 0, se)
        self.assertEqual([f for f in doc["findings"] if f["rule"] == "CG504"], [])

    def test_sweep_over_operators_is_not_recapture(self):
        # PyTorch's graph tests sweep operators and optimizers over inputs of
        # one shape: each capture is another graph (no CG705 at run time)
        rc, so, se, doc = self.run_json("op_sweep.py")
        self.assertEqual(rc, 0, se)
        seen = [f for f in doc["findings"] if f["rule"] == "CG705" and f["verdict"] in ("confirmed", "found_at_runtime")]
        self.assertEqual(seen, [])
        self.assertEqual(doc["run"]["regions"][0]["captures"], 3)

    def test_native_captures_without_line_information(self):
        # cuda-samples built without -g: the captures ran, but at no known
        # line; a finding there is "not exercised" with the reason, never
        # "its line never ran inside a capture"
        findings = os.path.join(self.tmp, "static.json")
        with open(findings, "w") as f:
            json.dump({"schema_version": 1, "tool": {"name": "cglint", "version": "test"},
                       "findings": [{"rule": "CG705", "path": "sweep.cu", "line": 133, "column": 9,
                                     "end_line": 133, "end_column": 30, "message": "capture in a loop"}]}, f)
        out = os.path.join(self.tmp, "report.json")
        rc, so, se = self.run_cglint(["--no-cupti", "--findings", findings, "-f", "json", "-o", out, "--",
                                      sys.executable, "native_no_lines.py"])
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
        f = self.finding(doc, "CG705")
        self.assertEqual(f["verdict"], "not_exercised", f)
        self.assertIn("2 captures ran at places cglint could not map to source lines", f["evidence"])
        self.assertIn("-g or -lineinfo", f["evidence"])

    def test_cpu_tensors_of_checkpoint_are_not_the_users(self):
        rc, so, se, doc = self.run_json("checkpoint_rng.py", static=["clean.py"])
        self.assertEqual(rc, 0)
        self.assertEqual(doc["findings"], [])

    def test_cpu_tensor_made_by_the_user(self):
        rc, so, se, doc = self.run_json("cpu_tensor.py")
        f = self.finding(doc, "CG305")
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("aten.zeros.default ran on CPU tensors during capture", f["evidence"])

    # ---- 3. baked Python values nobody predicted ----------------------------------
    def test_baked_numbers_found_at_run_time(self):
        rc, so, se, doc = self.run_json("baked.py", static=["clean.py"])
        self.assertEqual(rc, 0)
        by_line = {f["line"]: f for f in doc["findings"]}
        self.assertEqual(sorted(by_line), [17, 18, 22], doc["findings"])   # not WIDTH (constant), not i (loop)
        for f in by_line.values():
            self.assertEqual((f["rule"], f["verdict"]), ("CG304", "found_at_runtime"))
        self.assertIn("`lr` was 0.1 at capture, 0.01 at replay 12; the replay used 0.1", by_line[17]["evidence"])
        self.assertIn("`cfg.temperature` was 2 at capture, 1 at replay 12", by_line[18]["evidence"])
        self.assertIn("the branch here read `cfg.use_bias` = True at capture, False at replay 12",
                      by_line[22]["evidence"])

    def test_baked_numbers_confirm_static_findings(self):
        rc, so, se, doc = self.run_json("baked.py")
        got = {(f["rule"], f["line"]): f["verdict"] for f in doc["findings"]}
        self.assertEqual(got[("CG304", 17)], "confirmed")
        self.assertEqual(got[("CG304", 18)], "confirmed")
        self.assertEqual(got[("CG304", 22)], "found_at_runtime")

    # ---- 4. torch.compile(mode="reduce-overhead") ---------------------------------
    def test_reduce_overhead_breaks_and_skips(self):
        rc, so, se, doc = self.run_json("compiled.py")
        self.assertEqual(rc, 0)
        got = {(f["rule"], f["line"]): f for f in doc["findings"]}
        self.assertEqual(sorted(got), [("CG901", 7), ("CG902", 12)], doc["findings"])
        self.assertEqual(got[("CG901", 7)]["verdict"], "confirmed")
        self.assertIn("torch.compile graph break: Tensor.item", got[("CG901", 7)]["evidence"])
        self.assertEqual(got[("CG902", 12)]["verdict"], "confirmed")
        self.assertIn("inductor skipped CUDA graphs: skipping cudagraphs due to mutated inputs (1 instances).",
                      got[("CG902", 12)]["evidence"])
        # not the break in the default-mode function (`plain`: no CUDA graphs)

    def test_reduce_overhead_found_at_run_time(self):
        rc, so, se, doc = self.run_json("compiled.py", static=["clean.py"])
        got = {(f["rule"], f["line"]): f["verdict"] for f in doc["findings"]}
        self.assertEqual(got, {("CG901", 7): "found_at_runtime", ("CG902", 12): "found_at_runtime"})

    def test_compiled_region_at_the_users_call_site(self):
        rc, so, se, doc = self.run_json("compiled_clean.py")
        self.assertEqual(rc, 0)
        self.assertEqual(doc["findings"], [])
        r = doc["run"]["regions"]
        self.assertEqual([(x["path"], x["line"], x["kind"], x["captures"], x["replays"]) for x in r],
                         [("compiled_clean.py", 11, "torch.compile", 1, 5)])

    # ---- 6. no GPU, no silence ---------------------------------------------------
    def test_no_gpu_marks_every_finding(self):
        env = dict(self.env, FAKE_TORCH_NO_GPU="1")
        rc, so, se, doc = self.run_json("maybe_gpu.py", env=env, extra=["--strict"])
        self.assertEqual(so, "no GPU: running on the CPU\n")
        self.assertEqual(rc, 1)
        lines = [ln for ln in se.splitlines() if ln.startswith("cglint: warning")]
        self.assertEqual(lines, ["cglint: warning: no CUDA device is visible (torch.cuda.is_available() was False "
                                 "in the program): no capture ran, so every finding is not exercised "
                                 "(--strict: exit 1)"])
        f = self.finding(doc, "CG304")
        self.assertEqual((f["verdict"], f["evidence"]), ("not_exercised", "no capture ran"))
        rc, so, se, doc = self.run_json("maybe_gpu.py", env=env)
        self.assertEqual(rc, 0)

    def test_no_visible_device(self):
        env = dict(self.env, CUDA_VISIBLE_DEVICES="")
        rc, so, se = self.run_cglint(["--strict", "nocapture.py", "--", sys.executable, "-c", "pass"], env=env)
        self.assertEqual(rc, 1)
        self.assertIn('no CUDA device is visible (CUDA_VISIBLE_DEVICES="" hides every device): no capture ran', se)

    def test_cuda_never_initialised(self):
        out = os.path.join(self.tmp, "r.json")
        rc, so, se = self.run_cglint(["--strict", "-f", "json", "-o", out, "scalar.py", "--", sys.executable, "-c",
                                      "import torch; print(torch.zeros(2).shape)"])
        self.assertEqual(rc, 1)
        self.assertIn("no capture ran", se)
        with open(out) as f:
            doc = json.load(f)
        self.assertEqual(self.finding(doc, "CG304")["evidence"], "no capture ran")

    # ---- findings from a file ------------------------------------------------
    def test_findings_from_json_and_sarif(self):
        for fmt in ("json", "sarif"):
            static = os.path.join(self.tmp, "static." + fmt)
            subprocess.run([CGLINT, "-f", fmt, "-o", static, "item.py", "scalar.py"], cwd=progs(), check=False)
            rc, so, se, doc = self.run_json("item.py", extra=["--findings", static], static=[])
            self.assertEqual(self.finding(doc, "CG101")["verdict"], "confirmed", fmt)
            self.assertEqual(self.finding(doc, "CG304")["verdict"], "not_exercised", fmt)

    def test_findings_file_not_cglints(self):
        bad = os.path.join(self.tmp, "other.json")
        with open(bad, "w") as f:
            json.dump({"results": []}, f)
        rc, so, se = self.run_cglint(["--findings", bad, "--", sys.executable, "clean.py"])
        self.assertEqual(rc, 2)
        self.assertIn("is not a cglint report", se)
        self.assertNotIn("clean", so)          # the program did not run
        sarif = os.path.join(self.tmp, "other.sarif")
        with open(sarif, "w") as f:
            json.dump({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "ruff"}}, "results": []}]}, f)
        rc, so, se = self.run_cglint(["--findings", sarif, "--", sys.executable, "clean.py"])
        self.assertEqual(rc, 2)
        self.assertIn("SARIF log written by ruff", se)
        with open(bad, "w") as f:
            f.write("not json at all")
        rc, so, se = self.run_cglint(["--findings", bad, "--", sys.executable, "clean.py"])
        self.assertEqual(rc, 2)
        self.assertIn("not JSON", se)

    # ---- bad cases -----------------------------------------------------------
    def test_command_not_found(self):
        rc, so, se = self.run_cglint(["clean.py", "--", "no-such-program-cglint", "x"])
        self.assertEqual(rc, 127)
        self.assertIn("cannot run 'no-such-program-cglint': command not found", se)

    def test_program_crash_status_passes_through(self):
        rc, so, se, doc = self.run_json("crash.py")
        self.assertEqual(rc, 3)
        self.assertIn("giving up", se)
        self.assertIn("the program exited with status 3", se)
        self.assertEqual(doc["run"]["exit_code"], 3)

    def test_program_killed_by_signal(self):
        rc, so, se, doc = self.run_json("killed.py")
        self.assertEqual(rc, 128 + 9)
        self.assertIn("killed by signal 9 (SIGKILL)", se)
        self.assertEqual(doc["run"]["signal"], 9)
        self.assertIsNone(doc["run"]["exit_code"])
        self.assertGreaterEqual(doc["run"]["regions"][0]["replays"], 2)   # flushed at powers of two

    def test_no_capture(self):
        rc, so, se, doc = self.run_json("nocapture.py")
        self.assertEqual(rc, 0)
        self.assertTrue(any("no CUDA graph capture" in e["message"] or "no GPU" in e["message"]
                            for e in doc["errors"]), doc["errors"])

    def test_no_gpu(self):
        env = dict(self.env, FAKE_TORCH_NO_GPU="1")
        rc, so, se, doc = self.run_json("nocapture.py", env=env)
        self.assertIn("no CUDA device is visible (torch.cuda.is_available() was False in the program)", se)

    def test_observer_not_loaded(self):
        rc, so, se = self.run_cglint(["clean.py", "--", sys.executable, "-I", "-c", "print('isolated')"])
        self.assertEqual(rc, 0)
        self.assertEqual(so, "isolated\n")
        self.assertIn("the Python observer did not load", se)

    def test_usage_errors(self):
        rc, so, se = self.run_cglint(["clean.py"])
        self.assertEqual(rc, 2)
        self.assertIn("needs the program after '--'", se)
        rc, so, se = self.run_cglint(["--bogus", "--", "true"])
        self.assertEqual(rc, 2)

    # ---- python -m cglint_runtime ---------------------------------------------
    def test_module_launch_writes_events(self):
        env = dict(self.env)
        env["PYTHONPATH"] += os.pathsep + os.path.join(REPO, "runtime", "python")
        ev = os.path.join(self.tmp, "events")
        p = subprocess.run([sys.executable, "-m", "cglint_runtime", "--events", ev, progs("host_io.py")],
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        self.assertEqual(p.stdout.decode(), "captured one step\ndone\n")
        kinds = []
        for name in os.listdir(ev):
            with open(os.path.join(ev, name)) as f:
                kinds += [json.loads(line)["ev"] for line in f]
        for k in ("process", "region", "capture", "lines", "replays", "exit"):
            self.assertIn(k, kinds)


class RankTests(unittest.TestCase):
    """Several ranks of one run (issue 17): event files as two torchrun ranks
    would write them, joined by `cglint run --events DIR -- true`."""
    SRC = ("import torch\nimport torch.distributed as dist\n\n"        # 1-3
           "dist.init_process_group('nccl')\nrank = dist.get_rank()\n"  # 4-5
           "t = torch.ones(4, device='cuda')\ng = torch.cuda.CUDAGraph()\n\n"  # 6-8
           "with torch.cuda.graph(g):\n"                                    # 9
           "    torch.cuda.synchronize()\n"                                 # 10
           "    dist.all_reduce(t)\n"                                       # 11
           "    t.nonzero()\n"                                              # 12
           "g.replay()\n"                                                   # 13
           "dist.all_reduce(t)\n")                                          # 14

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="cglint-rank-test.")
        self.src = os.path.join(self.tmp, "ranks.py")
        with open(self.src, "w") as f:
            f.write(self.SRC)
        self.ev = os.path.join(self.tmp, "events")
        os.mkdir(self.ev)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def rank_file(self, rank, events, exited=True, pid=None, captured=True, ok=True, replays=0):
        pid = pid or 4000 + rank
        lines = [{"ev": "process", "v": 1, "source": "python", "pid": pid, "ppid": 1, "argv": ["ranks.py"],
                  "rank": rank, "local_rank": rank, "world_size": 2, "t": 1}]
        if captured:
            lines += [{"ev": "region", "rid": 1, "path": self.src, "line": 9, "kind": "torch.cuda.graph", "t": 2},
                      {"ev": "capture", "rid": 1, "n": 1, "t0": 3, "t1": 10, "ok": ok, "nodes": None}]
            if replays:
                lines.append({"ev": "replays", "rid": 1, "n": replays, "samples": 0, "mean_ms": None})
        lines += events
        if exited:
            lines.append({"ev": "exit", "t": 99, "cuda_available": True, "cuda_initialized": True})
        with open(os.path.join(self.ev, "py-%d-x.jsonl" % pid), "w") as f:
            f.write("".join(json.dumps(x) + "\n" for x in lines))

    def error(self, line, typ, msg, code=None, phase="capture", rid=1, t=5):
        return {"ev": "error", "phase": phase, "rid": rid, "type": typ, "message": msg, "code": code,
                "stack": [[self.src, line, "<module>"]], "thread": "main", "t": t}

    def unsupported(self, line, t=5):
        return self.error(line, "RuntimeError", "CUDA error: operation not permitted when stream is capturing",
                          "cudaErrorStreamCaptureUnsupported", t=t)

    def join(self, findings=(), command="true"):
        doc = {"schema_version": 1, "tool": {"name": "cglint", "version": "0"}, "root": self.tmp,
               "findings": [dict(rule=r, path="ranks.py", line=l, column=5, end_line=l, end_column=30,
                                 message="m", severity="error",
                                 capture={"path": "ranks.py", "line": 9, "column": 1, "kind": "torch.cuda.graph"})
                            for r, l in findings],
               "errors": [], "summary": {}}
        fpath = os.path.join(self.tmp, "findings.json")
        with open(fpath, "w") as f:
            json.dump(doc, f)
        out = os.path.join(self.tmp, "report.json")
        p = subprocess.run([CGLINT, "run", "--events", self.ev, "--findings", fpath, "-f", "json", "-o", out,
                            "--", command], cwd=self.tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertIn(p.returncode, (0, 1), p.stderr.decode())
        with open(out) as f:
            return json.load(f)

    def notices(self, doc):
        return [e["message"] for e in doc["errors"] if not e["message"].startswith("the program exited with status")]

    def test_one_rank_fails_the_other_dies_of_it(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [self.error(14, "DistBackendError", "NCCL communicator was aborted on rank 1",
                                      phase="uncaught", rid=None, t=50)], replays=1)
        doc = self.join()
        self.assertEqual([(f["rule"], f["line"]) for f in doc["findings"]], [("CG104", 10)])
        ev = doc["findings"][0]["evidence"]
        self.assertIn("on rank 0;", ev)
        self.assertIn("rank 1 died of it (not blamed)", ev)
        self.assertEqual(self.notices(doc), [
            "rank 1 died because rank 0 failed first at ranks.py:10: it saw only the communicator's failure "
            "(DistBackendError: NCCL communicator was aborted on rank 1); not blamed"])
        reg = doc["run"]["regions"][0]
        self.assertEqual(reg["ranks"], [{"rank": 0, "captures": 1, "failed_captures": 1, "replays": 0},
                                        {"rank": 1, "captures": 1, "failed_captures": 0, "replays": 1}])

    def test_the_dying_rank_confirms_nothing(self):
        # rank 1's NCCL abort inside its own capture, at a line a static
        # finding names: neither a confirmation nor a finding of its own
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [self.error(11, "DistBackendError", "Watchdog caught collective operation timeout",
                                      t=60)], ok=False)
        doc = self.join([("CG703", 11)])
        by = {(f["rule"], f["line"]): f for f in doc["findings"]}
        self.assertEqual(sorted(by), [("CG104", 10), ("CG703", 11)])
        self.assertNotEqual(by[("CG703", 11)]["verdict"], "confirmed")
        self.assertIn("rank 1 died because rank 0 failed first", self.notices(doc)[0])

    def test_a_rank_killed_after_the_other_failed(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [], exited=False)
        doc = self.join(command="false")   # the run failed: a rank that never exited was stopped
        self.assertEqual(len(doc["findings"]), 1)
        self.assertIn("rank 1 died of it (not blamed)", doc["findings"][0]["evidence"])
        self.assertEqual(self.notices(doc), ["rank 1 ended without exiting (stopped by the launcher or aborted) "
                                             "after rank 0 failed at ranks.py:10; not blamed"])

    def test_both_ranks_confirm_the_same_line(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [self.unsupported(10, t=6)], ok=False)
        doc = self.join([("CG104", 10)])
        self.assertEqual(len(doc["findings"]), 1)
        f = doc["findings"][0]
        self.assertEqual(f["verdict"], "confirmed")
        self.assertIn("confirmed on ranks 0,1", f["evidence"])
        self.assertNotIn("died", f["evidence"])
        self.assertEqual(self.notices(doc), [])

    def test_unpredicted_on_both_ranks_is_one_finding(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [self.unsupported(10, t=6)], ok=False)
        doc = self.join()
        self.assertEqual(len(doc["findings"]), 1)
        self.assertIn("; on ranks 0,1", doc["findings"][0]["evidence"])

    def test_different_lines_on_different_ranks(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [self.error(12, "RuntimeError", "aten.nonzero.default failed at capture",
                                      "cudaErrorStreamCaptureUnsupported", t=6)], ok=False)
        doc = self.join()
        got = sorted((f["line"], f["evidence"].split("; no static")[0].rsplit("; ", 1)[-1]) for f in doc["findings"])
        self.assertEqual([g[0] for g in got], [10, 12])
        self.assertIn("on rank 0", doc["findings"][0]["evidence"] if doc["findings"][0]["line"] == 10
                      else doc["findings"][1]["evidence"])
        ev12 = [f["evidence"] for f in doc["findings"] if f["line"] == 12][0]
        self.assertIn("on rank 1", ev12)
        self.assertNotIn("not blamed", ev12)
        self.assertEqual(self.notices(doc), [])

    def test_a_hang_says_which_ranks_captured(self):
        # a collective captured on rank 0 only: both ranks hang until killed
        self.rank_file(0, [], exited=False, replays=1)
        self.rank_file(1, [], exited=False, captured=False)
        doc = self.join(command="false")
        self.assertEqual(doc["findings"], [])
        n = self.notices(doc)
        self.assertIn("ranks 0,1 ended without exiting (killed, or aborted by NCCL's watchdog)", n[0])
        self.assertEqual(n[1], "this capture ran on rank 0 only, not on rank 1: a collective captured on some "
                               "ranks waits for ranks that never launch it")
        self.assertEqual([(e["path"], e["line"]) for e in doc["errors"] if e["line"]], [("ranks.py", 9)])

    def test_ranks_that_leave_through_os_exit_in_a_run_that_ended_well(self):
        # some launchers' workers end with os._exit: no exit event, exit 0
        self.rank_file(0, [], exited=False, replays=1)
        self.rank_file(1, [], exited=False, replays=1)
        doc = self.join()
        self.assertEqual((doc["findings"], self.notices(doc)), ([], []))

    def test_text_report_gives_per_rank_counts(self):
        self.rank_file(0, [self.unsupported(10)], ok=False)
        self.rank_file(1, [], replays=3)
        fpath = os.path.join(self.tmp, "f.json")
        with open(fpath, "w") as f:
            json.dump({"schema_version": 1, "tool": {"name": "cglint"}, "root": self.tmp, "findings": []}, f)
        p = subprocess.run([CGLINT, "run", "--events", self.ev, "--findings", fpath, "--", "true"], cwd=self.tmp,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        self.assertIn("2 captures (1 failed), 3 replays; by rank: rank 0: 1 capture (1 failed), 0 replays; "
                      "rank 1: 1 capture, 3 replays.", p.stdout.decode() + p.stderr.decode())

    def test_observer_records_ranks(self):
        # the observer in two processes with torchrun's RANK/WORLD_SIZE
        env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "tests", "runtime", "fake_torch"))
        out = os.path.join(self.tmp, "r.json")
        p = subprocess.run([CGLINT, "run", "-f", "json", "-o", out, "--events", self.ev, progs("rank_worker.py"),
                            "--", sys.executable, progs("ranks_launch.py"), "rank_worker.py"],
                           cwd=progs(), env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        with open(out) as f:
            doc = json.load(f)
        procs = []
        for name in os.listdir(self.ev):
            if not name.startswith("py-"):
                continue
            with open(os.path.join(self.ev, name)) as f:
                head = json.loads(f.readline())
            if "rank" in head:
                procs.append((head["rank"], head["world_size"]))
        self.assertEqual(sorted(procs), [(0, 2), (1, 2)])
        f = [x for x in doc["findings"] if x["verdict"] == "found_at_runtime"]
        self.assertEqual([(x["rule"], x["line"]) for x in f], [("CG002", 15)], doc["findings"])
        self.assertIn("on rank 0;", f[0]["evidence"])
        self.assertIn("rank 1 died of it (not blamed)", f[0]["evidence"])
        self.assertEqual([e["message"] for e in doc["errors"] if "rank 1" in e["message"]],
                         ["rank 1 died because rank 0 failed first at rank_worker.py:15: it saw only the "
                          "communicator's failure (DistBackendError: NCCL communicator was aborted on rank 1: the "
                          "peer's process exited); not blamed"])
        self.assertEqual(doc["run"]["regions"][0]["ranks"],
                         [{"rank": 0, "captures": 1, "failed_captures": 1, "replays": 0},
                          {"rank": 1, "captures": 1, "failed_captures": 0, "replays": 1}])


if __name__ == "__main__":
    CGLINT, REPO = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    unittest.main(argv=[sys.argv[0]] + sys.argv[3:], verbosity=2)
