"""The observer: wraps torch.cuda.graphs and records events (see __init__).

Events (one JSON object a line, key "ev"; times "t" in CLOCK_MONOTONIC ns,
the clock the CUPTI library uses too; paths absolute):

  process   this process started being observed (pid, ppid, argv, cwd, python)
  env       versions, at the first capture (torch, cuda, gpu)
  region    a capture site seen for the first time: rid, path, line, kind
  capture   one capture of region rid: n, t0, t1, ok, nodes
  lines     lines of user code that ran during that capture: [[path, line, count]...]
  error     an exception at capture (phase: begin, capture, end, graphed, thread, op):
            type, message, code (cudaError name), surface (what the user saw),
            stack [[path, line, function]...] innermost first, thread
  op        an operator seen during capture: what (cpu, pin, eager, failed), op, stack
  scalar    a Python number read at capture had another value at a replay
            (or read by a branch taken at capture: branch true)
  rebind    a name read by the region held another tensor at a replay (CG504)
  hparam    an optimizer hyperparameter captured as a float changed (CG606)
  replays   rid, n replays so far (written at powers of two and at exit),
            samples, mean_ms (sampled GPU time per replay)
  entries   rid, n: times the capture site was entered
  eager     rid, ms, calls, fns: the GPU time of the region's step run
            outside captures (the functions its body calls, each the median
            of its timed calls; Python >= 3.12), written at exit
  recapture rid, n, recaptures: a graph captured again (the same graph
            object, or the same code on inputs of the same shapes) after an
            earlier one of them was replayed (CG705)
  break     a Dynamo graph break: path, line, reason, site, cudagraphs (CG901)
  skip      inductor skipped CUDA graphs: path, line, reason, site (CG902)
  exit      the process is exiting: cuda_available, cuda_initialized, visible
"""
import atexit
import functools
import json
import os
import re
import sys
import threading
import time
import weakref

from . import EVENTS_VERSION

_lock = threading.RLock()
_state = None          # the one _State of this process, once activated
_warned = set()


def _warn(what, exc=None):
    if what in _warned:
        return
    _warned.add(what)
    try:
        sys.stderr.write("cglint: observer: %s%s\n" % (what, (": %r" % (exc,)) if exc else ""))
    except Exception:
        pass


def _now():
    return time.monotonic_ns()


# --------------------------------------------------------------------------
# the event file
class _Writer:
    def __init__(self, directory):
        self.dir = directory
        self.fd = None
        self.pid = None

    def write(self, ev):
        try:
            line = json.dumps(ev, separators=(",", ":"), default=repr) + "\n"
            with _lock:
                if self.fd is None or self.pid != os.getpid():
                    os.makedirs(self.dir, exist_ok=True)
                    self.pid = os.getpid()
                    name = "py-%d-%s.jsonl" % (self.pid, os.urandom(4).hex())
                    self.fd = os.open(os.path.join(self.dir, name),
                                      os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_CLOEXEC, 0o644)
                os.write(self.fd, line.encode("utf-8", "replace"))
        except Exception as e:
            _warn("cannot write events to %s" % self.dir, e)


# --------------------------------------------------------------------------
# which code is the user's
_SKIP_DIRS = []
_USER_DIRS = []


def _init_skip_dirs():
    import sysconfig
    dirs = set()
    for key in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            dirs.add(os.path.realpath(sysconfig.get_paths()[key]))
        except Exception:
            pass
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix):
        dirs.add(os.path.realpath(os.path.join(p, "lib")))
    dirs.add(os.path.realpath(os.path.dirname(os.path.abspath(__file__))))
    for extra in os.environ.get("CGLINT_LIBRARY_DIRS", "").split(os.pathsep):
        if extra:
            dirs.add(os.path.realpath(extra))
    # code that inductor and triton generate is never the user's
    try:
        import getpass
        import tempfile
        dirs.add(os.path.realpath(os.path.join(tempfile.gettempdir(), "torchinductor_" + getpass.getuser())))
    except Exception:
        pass
    for var in ("TORCHINDUCTOR_CACHE_DIR", "TRITON_CACHE_DIR"):
        if os.environ.get(var):
            dirs.add(os.path.realpath(os.environ[var]))
    dirs.add(os.path.realpath(os.path.expanduser("~/.triton")))
    _SKIP_DIRS[:] = sorted(d.rstrip("/") + "/" for d in dirs if d)
    # the files `cglint run PATH...` analysed are the user's, wherever they are
    own = os.path.realpath(os.path.dirname(os.path.abspath(__file__))).rstrip("/") + "/"
    _USER_DIRS[:] = sorted(set(os.path.realpath(d).rstrip("/") + ("" if os.path.isfile(d) else "/")
                               for d in os.environ.get("CGLINT_USER_DIRS", "").split(os.pathsep)
                               if d and os.path.exists(d) and not os.path.realpath(d).startswith(own.rstrip("/"))))


_user_cache = {}


# `python -c CODE`: the command's frames have the file name "<string>"; in
# such a process they are the user's code (placed as "<string>", line N of
# the command), never resolved against the working directory
_C_COMMAND = bool(getattr(sys, "argv", None)) and sys.argv[0] == "-c"


_ABSPATHS = {}   # co_filename -> its resolved path, resolved once per process


def _abspath(fn):
    # realpath() is an lstat per path component: per capture (the region's
    # site, its user frames) that was most of capture_begin's bookkeeping.
    # A relative co_filename is relative to the directory the program
    # started in, so its first resolution is also the right one.
    p = _ABSPATHS.get(fn)
    if p is not None:
        return p
    if fn == "<string>":
        return fn
    try:
        p = os.path.realpath(fn)
    except Exception:
        return fn
    _ABSPATHS[fn] = p
    return p


def _command_text():
    """The CODE of `python -c CODE`, or None."""
    orig = getattr(sys, "orig_argv", None)
    if not _C_COMMAND or not orig:
        return None
    try:
        i = orig.index("-c")
        return orig[i + 1][:65536]
    except (ValueError, IndexError):
        # combined options (`python -Bc CODE`): the argument after the one ending in c
        for i, a in enumerate(orig[1:], 1):
            if a.startswith("-") and not a.startswith("--") and a.endswith("c") and i + 1 < len(orig):
                return orig[i + 1][:65536]
    return None


def _rank_env():
    """The distributed rank of this process, as launchers set it (torchrun,
    MPI, Slurm): {"rank": r, "local_rank": l, "world_size": w}, ints only."""
    out = {}
    for key, names in (("rank", ("RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")),
                       ("local_rank", ("LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "SLURM_LOCALID")),
                       ("world_size", ("WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"))):
        for n in names:
            v = os.environ.get(n)
            if v is not None and v.strip().isdigit():
                out[key] = int(v)
                break
    return out


def _getvar_fn():
    if sys.version_info[:2] != (3, 12):
        return None
    try:
        import ctypes
        f = ctypes.pythonapi.PyFrame_GetVar
        f.restype = ctypes.py_object
        f.argtypes = (ctypes.py_object, ctypes.py_object)
        return f
    except Exception:
        return None


_getvar = _getvar_fn()
_CO_OPTIMIZED = 0x1


def _frame_locals(frame):
    """A function frame's variables as a dict of our own.

    On Python 3.12 and older, `frame.f_locals` of a function is a snapshot
    that the frame keeps and that holds every local's value of that moment
    until the next snapshot: after the program's `del g0, a, b` the graph and
    its tensors stay alive, and memory is not freed (PyTorch's memory-stat
    graph tests failed under the observer on the H100).  PyFrame_GetVar
    (3.12) reads each variable without one.  3.13 has a live proxy
    (PEP 667); module frames have their globals.  3.11 and older have neither;
    there the tracer's own calls make the snapshot anyway."""
    code = frame.f_code
    if _getvar is None or not (code.co_flags & _CO_OPTIMIZED):
        return frame.f_locals
    out = {}
    for name in code.co_varnames + code.co_cellvars + code.co_freevars:
        try:
            out[name] = _getvar(frame, name)
        except NameError:
            pass
        except Exception:
            pass
    return out


def _is_user(fn):
    u = _user_cache.get(fn)
    if u is None:
        if not fn or fn.startswith("<"):
            u = _C_COMMAND and fn == "<string>"
        else:
            p = _abspath(fn)
            if "/torchinductor_" in p or "/cglint_runtime/" in p:
                u = False
            elif _USER_DIRS and any(p == d or (d.endswith("/") and p.startswith(d)) for d in _USER_DIRS):
                u = True
            else:
                u = not any(p.startswith(d) for d in _SKIP_DIRS)
                # a torch checkout or any package named torch is never the user's
                if u and ("/torch/" in p or "/site-packages/" in p or "/dist-packages/" in p):
                    u = False
        _user_cache[fn] = u
    return u


def _user_frame(f):
    """The innermost frame of user code at or outside f."""
    while f is not None and not _is_user(f.f_code.co_filename):
        f = f.f_back
    return f


def _stack_of(f, limit=12):
    out = []
    while f is not None and len(out) < limit:
        fn = f.f_code.co_filename
        if _is_user(fn):
            out.append([_abspath(fn), f.f_lineno, f.f_code.co_name])
        f = f.f_back
    return out


def _tb_stack(tb, limit=16):
    """User frames of a traceback, innermost first, then the frames outside it."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    out = []
    for fr, line in reversed(frames):
        if _is_user(fr.f_code.co_filename):
            out.append([_abspath(fr.f_code.co_filename), line, fr.f_code.co_name])
    if frames:
        outer = frames[0][0].f_back
        out.extend(_stack_of(outer, limit))
    return out[:limit]


def _tb_lib(tb, limit=3):
    """The innermost frames of a traceback whatever their files: where an
    error happened when no user code is on its stack."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    out = []
    for fr, line in reversed(frames[-limit:]):
        fn = fr.f_code.co_filename
        if fn and (not fn.startswith("<") or _is_user(fn)):
            out.append([_abspath(fn), line, fr.f_code.co_name])
    return out


_CUDA_MESSAGES = [
    ("operation not permitted when stream is capturing", "cudaErrorStreamCaptureUnsupported"),
    ("operation failed due to a previous error during capture", "cudaErrorStreamCaptureInvalidated"),
    ("capture sequence contains a fork that was not joined", "cudaErrorStreamCaptureUnjoined"),
    ("operation would make the legacy stream depend on a capturing blocking stream",
     "cudaErrorStreamCaptureImplicit"),
    ("dependency created on uncaptured work in another stream", "cudaErrorStreamCaptureIsolation"),
    ("operation not permitted on an event last recorded in a capturing stream", "cudaErrorCapturedEvent"),
    ("capture was not initiated in this stream", "cudaErrorStreamCaptureUnmatched"),
    ("attempted operation not permitted when stream is capturing", "cudaErrorStreamCaptureUnsupported"),
]
_CODE_RE = re.compile(r"\b(cudaError\w+|CUDA_ERROR_\w+|CUBLAS_STATUS_\w+|CUDNN_STATUS_\w+)")


def _cuda_code(msg):
    m = _CODE_RE.search(msg)
    if m:
        return m.group(1)
    low = msg.lower()
    for text, code in _CUDA_MESSAGES:
        if text in low:
            return code
    return None


def _first_line(msg, limit=300):
    msg = msg.strip().splitlines()[0] if msg.strip() else ""
    return msg[:limit]


def _exc_record(e):
    msg = str(e)
    return {"type": type(e).__name__, "message": _first_line(msg), "code": _cuda_code(msg)}


def _root_context(e):
    """The deepest __context__/__cause__: the exception that started it."""
    seen = set()
    root = e
    while True:
        nxt = root.__cause__ or root.__context__
        if nxt is None or id(nxt) in seen:
            return root
        seen.add(id(nxt))
        root = nxt


# --------------------------------------------------------------------------
# reading values the way a debugger would: no properties, no __getattr__
class _NoValue(Exception):
    pass


def _sget(obj, name):
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        raise _NoValue()
    if name in d:
        return d[name]
    for store in ("_parameters", "_buffers", "_modules"):
        s = d.get(store)
        if type(s) is dict or (s is not None and isinstance(s, dict)):
            if name in s:
                return s[name]
    raise _NoValue()


def _resolve_chain(root, chain):
    v = root
    for part in chain:
        if isinstance(part, str):
            v = _sget(v, part)
        else:  # a constant subscript: exact dicts and lists only
            key = part[0]
            if type(v) is dict and key in v:
                v = v[key]
            elif type(v) in (list, tuple) and isinstance(key, int) and -len(v) <= key < len(v):
                v = v[key]
            else:
                raise _NoValue()
    return v


_STR_RE = re.compile(r"(\"\"\"|'''|\"|')(?:\\.|(?!\1).)*\1")
_CHAIN_RE = re.compile(
    r"(?<![\w.\]\)])([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*|\s*\[\s*(?:-?\d+|\"[^\"\\]*\"|'[^'\\]*')\s*\])*)(\s*\()?")
_PART_RE = re.compile(r"\.\s*([A-Za-z_]\w*)|\[\s*(-?\d+|\"[^\"\\]*\"|'[^'\\]*')\s*\]")
_KEYWORDS = frozenset("""False None True and as assert async await break class continue def del elif else
except finally for from global if import in is lambda nonlocal not or pass raise return try while with
yield print self""".split()) - {"self"}
_line_cache = {}


def _line_chains(path, line):
    """Dotted names with constant subscripts read on a source line, without
    calls: `self.lr`, `group["lr"]`, `static_x` (not `model` in `model(x)`)."""
    key = (path, line)
    got = _line_cache.get(key)
    if got is not None:
        return got
    import linecache
    text = linecache.getline(path, line)
    text = text.split("#", 1)[0] if "#" in text and "'" not in text and '"' not in text else text
    text = _STR_RE.sub(lambda m: m.group(0) if re.fullmatch(r"[\"'][^\"'\\]*[\"']", m.group(0)) else '""', text)
    text = _strip_targets(text)
    out = []
    for m in _CHAIN_RE.finditer(text):
        expr, call = m.group(1), m.group(2)
        if not call and re.match(r"\s*=(?!=)", text[m.end():]):
            continue                # a keyword argument's name
        head = re.match(r"[A-Za-z_]\w*", expr).group(0)
        if head in _KEYWORDS:
            continue
        parts = []
        for pm in _PART_RE.finditer(expr[len(head):]):
            if pm.group(1):
                parts.append(pm.group(1))
            else:
                lit = pm.group(2)
                parts.append((int(lit),) if lit[0] not in "\"'" else (lit[1:-1],))
        if call and parts:
            parts = parts[:-1]      # `self.proj(h)`: `self.proj` is called, not read
        elif call:
            continue                # `model(x)`
        # every prefix that ends in an attribute is read too (`self.buf` of `self.buf.mean`)
        out.append((head, tuple(parts)))
    _line_cache[key] = out
    return out


def _strip_targets(text):
    """The right-hand side of a plain assignment (`a, self.b = ...`): its
    targets are written, not read."""
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "=" and depth == 0:
            prev = text[i - 1] if i else ""
            nxt = text[i + 1] if i + 1 < len(text) else ""
            if prev in "=<>!+-*/%&|^@:" or nxt == "=":
                return text
            if re.fullmatch(r"[\w\s.,\[\]'\"*]*", text[:i]):
                return text[i + 1:]
            return text
        elif ch == ":" and depth == 0:
            return text
    return text


def _chain_text(head, parts):
    s = head
    for p in parts:
        s += ("." + p) if isinstance(p, str) else "[%r]" % (p[0],)
    return s


# --------------------------------------------------------------------------
class _Region:
    """A capture site: the user's line where captures begin."""
    __slots__ = ("rid", "path", "line", "kind", "captures", "replays", "samples", "pending", "entries",
                 "sigs", "recaptures", "steps", "step_only")

    def __init__(self, rid, path, line, kind):
        self.rid, self.path, self.line, self.kind = rid, path, line, kind
        self.captures = 0
        self.replays = 0
        self.entries = 0
        self.samples = []        # finished replay times, ms
        self.pending = []        # (start event, end event)
        self.sigs = {}           # capture signature -> [_Graph] captured with it
        self.recaptures = 0
        self.steps = {}          # code objects the capture's own body calls (its step) -> None, in order
        self.step_only = None    # every good capture's body did its work in those functions only (None: none yet)


class _Graph:
    """One CUDAGraph object: what its last capture read, and its replays."""
    __slots__ = ("region", "captures", "replays", "tensors", "scalars", "hparams", "reported", "capture_code",
                 "checks")

    def __init__(self, region):
        self.region = region
        self.captures = 0        # good captures
        self.replays = 0
        self.reset()

    def reset(self):
        self.tensors = {}        # key -> (scope, head, parts, data_ptr, path, line, text)
        self.scalars = {}        # key -> (scope, head, parts, value, path, line, text, branch)
        self.hparams = {}        # key -> (optimizer weakref, group index, name, value, path, line)
        self.reported = set()
        self.capture_code = None
        self.checks = False      # anything to compare at a replay


class _Capture:
    __slots__ = ("region", "graph", "info", "t0", "lines", "frame_code", "frame_globals", "module_level", "begin_ids",
                 "visited", "tid", "mode", "tracer", "with_code", "shapes", "nops", "ops", "cfg", "scalar_seen", "compiled",
                 "codes", "body_work", "engine_checked")

    def __init__(self, region, graph, info):
        self.region = region
        self.graph = graph
        self.info = info
        self.t0 = _now()
        self.lines = {}
        self.frame_code = None
        self.frame_globals = None
        self.module_level = False
        self.begin_ids = {}
        self.visited = set()
        self.tid = threading.get_ident()
        self.mode = None
        self.tracer = None
        self.with_code = None
        self.shapes = []         # tensor shapes of the first operators: the signature's inputs
        self.nops = 0
        self.ops = 0             # a hash of every operator captured, in order: what the graph does
        self.cfg = ()            # capture_begin's arguments, by kind (a pool given, the error mode)
        self.scalar_seen = set()
        self.compiled = region.kind == "torch.compile"
        self.codes = set()       # user code objects that ran lines in it (each checked once for _note_step)
        self.body_work = None    # see _note_body_op; None: no dispatch mode to tell
        self.engine_checked = 0


class _State:
    def __init__(self, events_dir, hints):
        self.w = _Writer(events_dir)
        self.regions = {}          # (path, line, kind) -> _Region
        self.graphs = weakref.WeakKeyDictionary()   # CUDAGraph -> _Graph
        self.graphs_by_id = {}
        self.active = []           # _Capture stack
        self.mgc = []              # make_graphed_callables sites being run
        self.hint_lines = {}       # (path, line) -> set(rules)
        self.env_written = False
        self.hooked_optim = False
        self.torch = None
        self.breaks = set()        # (path, line, reason) of graph breaks written
        self.skips = set()
        self.rank = {}             # rank, local_rank, world_size as the launcher set them
        self.prepared = False      # _prepare_captures done
        self.load_hints(hints)

    def load_hints(self, hints):
        if not hints:
            return
        try:
            with open(hints, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if not line:
                        continue
                    h = json.loads(line)
                    p = _abspath(h["path"])
                    for ln in range(int(h["line"]), int(h.get("end_line") or h["line"]) + 1):
                        self.hint_lines.setdefault((p, ln), set()).add(h["rule"])
        except Exception as e:
            _warn("cannot read the hints file %s" % hints, e)

    # -- regions -----------------------------------------------------------
    def region_for(self, graph, f):
        kind = None
        if self.mgc:
            path, line = self.mgc[-1]
            kind = "make_graphed_callables"
        else:
            compiled = _compiled_call_site(f)
            if compiled is not None:
                path, line = compiled
                kind = "torch.compile"
            else:
                uf = _user_frame(f)
                if uf is None:
                    path, line = "?", 0
                else:
                    path, line = _abspath(uf.f_code.co_filename), uf.f_lineno
                kind = "capture_begin"
                g = f
                while g is not None:
                    if g.f_code.co_name == "__enter__" and "torch" in g.f_code.co_filename:
                        kind = "torch.cuda.graph"
                        break
                    if _is_user(g.f_code.co_filename):
                        break
                    g = g.f_back
        key = (path, line, kind)
        r = self.regions.get(key)
        if r is None:
            r = _Region(len(self.regions) + 1, path, line, kind)
            self.regions[key] = r
            self.w.write({"ev": "region", "rid": r.rid, "path": path, "line": line, "kind": kind,
                          "t": _now()})
        if kind != "make_graphed_callables":
            r.entries += 1
            self.w.write({"ev": "entries", "rid": r.rid, "n": r.entries})
        return r

    def graph_info(self, graph):
        try:
            return self.graphs.get(graph)
        except TypeError:
            return self.graphs_by_id.get(id(graph))

    def set_graph_info(self, graph, info):
        try:
            self.graphs[graph] = info
        except TypeError:
            self.graphs_by_id[id(graph)] = info

    def write_env(self):
        if self.env_written:
            return
        self.env_written = True
        t = self.torch
        ev = {"ev": "env", "torch": getattr(t, "__version__", None), "cuda": None, "gpu": None}
        try:
            ev["cuda"] = t.version.cuda
        except Exception:
            pass
        try:
            ev["gpu"] = t.cuda.get_device_name()
        except Exception:
            pass
        self.w.write(ev)


def _compiled_call_site(f):
    """A capture made by torch.compile (inductor's CUDA graph trees): the
    user's line that called the compiled function or module, past inductor's
    generated code and Dynamo's frames; None for any other capture."""
    frames = []
    g = f
    while g is not None and len(frames) < 200:
        frames.append(g)
        g = g.f_back
    if not any("/torch/_inductor/" in x.f_code.co_filename for x in frames):
        return None
    return _outside_compile(frames) or ("?", 0)


def _outside_compile(frames):
    """The user's frame that called into torch.compile: the first one outside
    the outermost Dynamo frame (Dynamo's wrappers also sit inside compiled
    code, around the graphs it calls, so the innermost would name a line of
    the compiled function); else the innermost user frame."""
    outer = -1
    for i, x in enumerate(frames):
        if "/torch/_dynamo/" in x.f_code.co_filename:
            outer = i
    for x in frames[outer + 1:]:
        if _is_user(x.f_code.co_filename):
            return _abspath(x.f_code.co_filename), x.f_lineno
    for x in frames:
        if _is_user(x.f_code.co_filename):
            return _abspath(x.f_code.co_filename), x.f_lineno
    return None


# --------------------------------------------------------------------------
# line events during capture
_TOOL = None


def _on_capture_line(frame, path, line):
    st = _state
    if not st or not st.active:
        return
    cap = st.active[-1]
    code = frame.f_code
    if code not in cap.codes:
        cap.codes.add(code)
        _note_step(cap, code, frame)
    key = (path, line)
    cap.lines[key] = cap.lines.get(key, 0) + 1
    if key in cap.visited:
        return
    cap.visited.add(key)
    try:
        _inspect_line(st, cap, frame, path, line)
    except Exception as e:
        _warn("line inspection failed", e)


_BRANCH_RE = re.compile(r"\s*(?:if|elif|while)\b")
_NUMBER = (int, float)


_branch_cache = {}


def _is_branch(path, line):
    """Whether a source line is an `if`, `elif` or `while` condition."""
    key = (path, line)
    b = _branch_cache.get(key)
    if b is None:
        import linecache
        b = _branch_cache[key] = bool(_BRANCH_RE.match(linecache.getline(path, line)))
    return b


def _root_of(frame, cap, head, parts, flocals):
    """(root object, scope, key) of a name read on a line of `frame`, the
    way it can be found again at a replay; None when it cannot be."""
    is_capture_frame = frame.f_code is cap.frame_code
    if head in flocals:
        root = flocals[head]
        if is_capture_frame and frame.f_globals is not flocals:
            return root, ("local",), ("local", head, parts)
        if frame.f_globals is flocals:
            return root, ("global", frame.f_globals), ("global", head, parts)
        if parts:
            try:
                return root, ("object", weakref.ref(root)), ("object", id(root), parts)
            except TypeError:
                return None
        return None
    if head in frame.f_globals:
        return frame.f_globals[head], ("global", frame.f_globals), ("global", head, parts)
    return None


def _bound_inside(cap, frame, scope, head, root):
    """A name the region itself bound (a loop variable, an output): it is
    meant to differ after the capture."""
    if scope[0] == "local" or (scope[0] == "global" and cap.module_level and frame.f_globals is cap.frame_globals):
        b = cap.begin_ids.get(head)
        return b is None or b != id(root)
    return False


def _inspect_line(st, cap, frame, path, line):
    torch = st.torch
    if torch is None or cap.compiled:
        return
    apath = _abspath(path)
    hinted = st.hint_lines.get((apath, line), ())
    want_scalars = "CG304" in hinted or "CG606" in hinted
    branch = None
    is_capture_frame = frame.f_code is cap.frame_code
    info = cap.info
    Tensor = torch.Tensor
    flocals = None
    for head, parts in _line_chains(path, line):
        # the root object and how to find it again at a replay
        if flocals is None:
            try:
                flocals = _frame_locals(frame)
            except Exception:
                flocals = {}
        got = _root_of(frame, cap, head, parts, flocals)
        if got is None:
            continue
        root, scope, skey = got
        try:
            v = _resolve_chain(root, parts)
        except Exception:
            continue
        text = _chain_text(head, parts)
        if isinstance(v, Tensor):
            if is_capture_frame and not parts and cap.begin_ids.get(head) != id(v):
                continue   # bound inside the region: an output, not an input
            if skey in info.tensors or len(info.tensors) >= 64:
                continue
            try:
                if not v.is_cuda:
                    continue
                ptr = v.data_ptr()
            except Exception:
                continue
            info.tensors[skey] = (scope, head, parts, ptr, apath, line, text)
            info.checks = True
            continue
        if type(v) not in _NUMBER and type(v) is not bool:
            continue
        if branch is None:
            branch = _is_branch(path, line)
        if not (branch or (want_scalars and type(v) is not bool)):
            continue
        if skey in info.scalars or len(info.scalars) >= 64 or _bound_inside(cap, frame, scope, head, root):
            continue
        info.scalars[skey] = (scope, head, parts, v, apath, line, text, branch)
        info.checks = True


def _scalar_at_op(st, cap, caller, value):
    """A Python number reached an operator as a scalar argument during the
    capture: it is baked into the graph.  Find the names on the user's line
    (or the lines that called it) that hold it, to compare at each replay."""
    f = _user_frame(caller)
    if f is None:
        return
    key = (f.f_code, f.f_lineno, value)
    if key in cap.scalar_seen or len(cap.scalar_seen) >= 512:
        return
    cap.scalar_seen.add(key)
    depth = 0
    while f is not None and depth < 4:
        if _match_scalar(st, cap, f, value):
            return
        if f.f_code is cap.frame_code:
            return
        f = _user_frame(f.f_back)
        depth += 1


def _match_scalar(st, cap, frame, value):
    path, line = frame.f_code.co_filename, frame.f_lineno
    info = cap.info
    try:
        flocals = _frame_locals(frame)
    except Exception:
        flocals = {}
    found = False
    for head, parts in _line_chains(path, line):
        got = _root_of(frame, cap, head, parts, flocals)
        if got is None:
            continue
        root, scope, skey = got
        try:
            v = _resolve_chain(root, parts)
        except Exception:
            continue
        if type(v) not in _NUMBER or (v != value and -v != value):
            continue
        found = True
        if skey in info.scalars or len(info.scalars) >= 64 or _bound_inside(cap, frame, scope, head, root):
            continue
        info.scalars[skey] = (scope, head, parts, v, _abspath(path), line, _chain_text(head, parts), False)
        info.checks = True
    return found


_user_codes = set()   # code objects of user files seen starting or resuming during a capture
_outside_calls = {}   # user code objects started outside captures -> times (PY_START still on for them)
_lines_on = [False]   # LINE events wanted: a capture is active
_HOT_OUTSIDE = 256    # starts outside captures after which a user function is switched like the known ones


# --------------------------------------------------------------------------
# the step run eagerly (Python >= 3.12): the GPU time of what a capture runs,
# when the program also runs it outside captures (its warm-up, usually), to
# set beside the replay time.  A user function is timed (a CUDA event on the
# current stream at its start and at its return) only while its PY_START is
# still on (its first _HOT_OUTSIDE calls) and only when its caller, the
# nearest user frame, names a capture API (the function that warms up and
# captures, or make_graphed_callables' caller); what a capture's body calls
# (its steps, _note_step) is known only at the capture, so the warm-up calls
# before it are timed on that guess, and only the steps' times are reported.
_EAGER_KEEP = 16          # timed calls kept per function: the latest
_EAGER_MAX = 8192         # timed calls in all, for the life of the process
_eager_pairs = {}         # code -> [calls timed, [(start event, end event)...]]
_eager_open = {}          # (thread id, id(frame)) -> (code, start event)
_eager_ret = set()        # codes with PY_RETURN switched on
_eager_n = [0]
_CAPTURE_NAMES = frozenset(("graph", "CUDAGraph", "capture_begin", "make_graphed_callables"))
_holds_capture = {}       # code -> whether it names a capture API
_CO_NOT_TIMED = 0x20 | 0x80 | 0x100 | 0x200   # generators and coroutines: a return is not their end


def _torch():
    """torch, when an eager call may be timed: never while a capture is
    active anywhere in the process (an event recorded on the legacy stream
    during another thread's global-mode capture would invalidate it)."""
    st = _state
    if st is None or st.active:
        return None
    return st.torch or sys.modules.get("torch")   # (st.torch is set at the first capture)


def _caller_user_code(frame):
    g = _user_frame(frame.f_back)
    return g.f_code if g is not None else None


def _set_local(code):
    """The local events code needs: LINE during a capture (a user function
    seen in one), PY_RETURN while its calls are timed."""
    mon = sys.monitoring
    ev = (mon.events.LINE if _lines_on[0] and code in _user_codes else 0) | \
         (mon.events.PY_RETURN if code in _eager_ret else 0)
    try:
        mon.set_local_events(_TOOL, code, ev)
    except Exception:
        pass


def _eager_start(code, frame):
    if _eager_n[0] >= _EAGER_MAX or code.co_flags & _CO_NOT_TIMED:
        return
    t = _torch()
    try:
        if t is None or not t.cuda.is_initialized():   # (before the frame walk: most calls stop here)
            return
    except Exception:
        return
    c = _caller_user_code(frame)
    if c is None:
        return
    h = _holds_capture.get(c)
    if h is None:
        h = _holds_capture[c] = not _CAPTURE_NAMES.isdisjoint(c.co_names)
    if not h:
        return
    try:
        if t.cuda.is_current_stream_capturing():
            return
        a = t.cuda.Event(enable_timing=True)
        a.record()
    except Exception:
        return
    _eager_n[0] += 1
    if len(_eager_open) > 4096:   # starts whose frames raised (no PY_RETURN)
        _eager_open.clear()
    _eager_open[(threading.get_ident(), id(frame))] = (code, a)
    if code not in _eager_ret:
        _eager_ret.add(code)
        _set_local(code)


def _eager_return(code, frame):
    ent = _eager_open.pop((threading.get_ident(), id(frame)), None)
    if ent is None or ent[0] is not code:
        return
    try:
        t = _torch()
        if t is None or t.cuda.is_current_stream_capturing():
            return
        b = t.cuda.Event(enable_timing=True)
        b.record()
    except Exception:
        return
    kept = _eager_pairs.setdefault(code, [0, []])
    kept[0] += 1
    kept[1].append((ent[1], b))
    if len(kept[1]) > _EAGER_KEEP:
        del kept[1][0]


def _eager_stop(code):
    """code turned hot: no more PY_START, so no more timed calls of it."""
    if code in _eager_ret:
        _eager_ret.discard(code)
        _set_local(code)


def _note_step(cap, code, frame):
    """A user function that runs in the capture, called by the capture's own
    body (its nearest user caller is the frame holding the capture): part
    of the step the graph replays."""
    if cap.frame_code is None or code is cap.frame_code or cap.tid != threading.get_ident():
        return
    if _caller_user_code(frame) is cap.frame_code and len(cap.region.steps) < 16:
        cap.region.steps.setdefault(code, None)


def _note_body_op(cap, caller):
    """An operator of the capture's own body (its innermost user frame is the
    frame holding the capture), not of a function the body calls: then the
    step is more than those functions, and their eager time is not the
    step's (`out = model(x); out.sum().backward()`).  The autograd engine's
    threads have no Python caller: the capturing thread's stack says who
    asked for the backward (its first few operators are enough)."""
    if cap.body_work or cap.frame_code is None:
        return
    if caller is None or cap.tid != threading.get_ident():
        if cap.engine_checked >= 8:
            return
        cap.engine_checked += 1
        caller = sys._current_frames().get(cap.tid)
    uf = _user_frame(caller)
    if uf is not None and uf.f_code is cap.frame_code:
        cap.body_work = True


def _eager_of(region):
    """The eager GPU time of the region's step: the median of each step
    function's timed calls (its first call left out when there are others:
    set-up, autotuning), summed; None unless every step function was timed."""
    if not region.steps or not region.step_only:
        return None
    total, calls, fns = 0.0, None, []
    for code in region.steps:
        kept = _eager_pairs.get(code)
        if not kept:
            return None
        times = []
        for a, b in kept[1]:
            try:
                b.synchronize()
                times.append(a.elapsed_time(b))
            except Exception:
                pass
        if len(times) > 1 and kept[0] == len(kept[1]):
            times = times[1:]
        if not times:
            return None
        times.sort()
        total += times[len(times) // 2]
        calls = len(times) if calls is None else min(calls, len(times))
        fns.append(getattr(code, "co_qualname", code.co_name))
    return {"ev": "eager", "rid": region.rid, "ms": total, "calls": calls, "fns": fns}


def _start_lines(cap):
    """Record the lines of user code that run during the capture.

    Python >= 3.12: sys.monitoring, per code object.  PY_START/PY_RESUME
    tell which code objects run: the callback returns DISABLE for every code
    object that is not the user's (torch's functions cost one call each for
    the life of the process) and for user code seen during a capture; LINE
    events are switched on only for user code objects (set_local_events),
    and off again when the capture ends, so eager code outside captures pays
    nothing per line.  PY_START/PY_RESUME are switched on when
    torch.cuda.graphs is imported (CGLINT_LINES_AT=capture: at the first
    capture) and stay on: each function is instrumented once, when it first
    runs (in the warm-up before a capture, usually), and switching a global
    event would make CPython re-instrument every function that runs next (at
    each begin, all of torch's functions the capture calls; at each end,
    everything after), which cost more than the capture's own work.  A user function started outside captures keeps its
    PY_START (one callback per call) so that a later capture that calls it is
    seen, until it has started _HOT_OUTSIDE times: then it is disabled and
    its LINE events are switched at each capture like the known ones.
    Older Pythons: sys.settrace on this thread."""
    if sys.version_info >= (3, 12) and hasattr(sys, "monitoring"):
        if _TOOL is None:
            _monitoring_setup()
        if _TOOL < 0:
            return
        # user code known from earlier captures (its PY_START is disabled),
        # and the frames already running (the one holding the `with`)
        f = sys._getframe(1)
        while f is not None:
            if _is_user(f.f_code.co_filename):
                _user_codes.add(f.f_code)
            f = f.f_back
        _lines_on[0] = True
        for code in _user_codes:
            _set_local(code)
        cap.tracer = "monitoring"
        return
    _start_settrace(cap)


def _monitoring_setup():
    """sys.monitoring's tool, its callbacks, and PY_START/PY_RESUME on for
    good (see _start_lines)."""
    global _TOOL
    if _TOOL is not None or not (sys.version_info >= (3, 12) and hasattr(sys, "monitoring")):
        return
    if True:
        mon = sys.monitoring
        if _TOOL is None:
            for tid in (4, 3):
                try:
                    mon.use_tool_id(tid, "cglint")
                    _TOOL = tid
                    break
                except ValueError:
                    continue
            if _TOOL is None:
                _warn("no free sys.monitoring tool id: lines run at capture are not recorded")
                _TOOL = -1
                return
            disable = mon.DISABLE

            def on_start(code, offset):
                if not _is_user(code.co_filename):
                    return disable
                if _lines_on[0]:
                    _user_codes.add(code)
                    _set_local(code)
                    st = _state
                    if st is not None and st.active:
                        _note_step(st.active[-1], code, sys._getframe(1))
                    return disable
                n = _outside_calls.get(code, 0) + 1
                if n < _HOT_OUTSIDE:
                    _outside_calls[code] = n
                    _eager_start(code, sys._getframe(1))
                    return None
                _user_codes.add(code)
                _eager_stop(code)
                return disable

            def on_line(code, line):
                _on_capture_line(sys._getframe(1), code.co_filename, line)

            def on_return(code, offset, retval):
                _eager_return(code, sys._getframe(1))
            mon.register_callback(_TOOL, mon.events.PY_START, on_start)
            mon.register_callback(_TOOL, mon.events.PY_RESUME, on_start)
            mon.register_callback(_TOOL, mon.events.LINE, on_line)
            mon.register_callback(_TOOL, mon.events.PY_RETURN, on_return)
            mon.set_events(_TOOL, mon.events.PY_START | mon.events.PY_RESUME)


def _start_settrace(cap):
    # settrace: this thread only; frames already running get f_trace by hand
    if sys.gettrace() is not None:
        _warn("a tracer (debugger or coverage) is active: lines run at capture are not recorded")
        return

    def local(frame, event, arg):
        if event == "line":
            _on_capture_line(frame, frame.f_code.co_filename, frame.f_lineno)
        return local

    def glob(frame, event, arg):
        if event == "call" and _is_user(frame.f_code.co_filename):
            return local
        return None
    f = sys._getframe(1)
    touched = []
    while f is not None:
        if _is_user(f.f_code.co_filename):
            f.f_trace = local
            f.f_trace_lines = True
            touched.append(f)
        f = f.f_back
    sys.settrace(glob)
    cap.tracer = ("settrace", touched)


def _stop_lines(cap):
    if cap.tracer == "monitoring":
        st = _state
        if st is not None and st.active:
            cap.tracer = None
            return      # another capture (another thread) still records lines
        _lines_on[0] = False
        for code in _user_codes:
            _set_local(code)
    elif cap.tracer:
        sys.settrace(None)
        for f in cap.tracer[1]:
            try:
                f.f_trace = None
            except Exception:
                pass
    cap.tracer = None


# --------------------------------------------------------------------------
# operators during capture (TorchDispatchMode)

# torch's modules that do work of their own (state saved and restored,
# bookkeeping, collectives, compilation): CPU tensors they make inside a
# capture are theirs, not the program's
# (Dynamo's frames are not among them: its `disable` wrappers may sit between
# an operator and its caller; on the H100 with PyTorch 2.11 a list that
# stopped at torch/_dynamo/ or torch/cuda/graphs.py missed every CPU operator
# the user made)
_LIBRARY_WORK = ("/torch/utils/checkpoint.py", "/torch/random.py", "/torch/cuda/random.py", "/torch/amp/",
                 "/torch/cuda/amp/", "/torch/optim/", "/torch/distributed/", "/torch/nn/parallel/",
                 "/torch/utils/data/", "/torch/_inductor/", "/torch/_tensor_str.py", "/torch/testing/",
                 "/torch/profiler/")


def _made_by_user(f):
    """Whether the operator whose Python caller is f was made by the user's
    code: the frames between it and the innermost user frame are torch's
    pass-through layers (tensor methods, functional wrappers, dispatch
    machinery) or the standard library, never a torch module that does work
    of its own (checkpoint's RNG-state handling) or another library."""
    while f is not None:
        fn = f.f_code.co_filename
        if _is_user(fn):
            return True
        p = _abspath(fn)
        if any(x in p for x in _LIBRARY_WORK) or "/torchinductor_" in p:
            return False
        if "/torch/" not in p and "/cglint_runtime/" not in p and ("/site-packages/" in p or "/dist-packages/" in p):
            return False      # another library's own work
        f = f.f_back
    return False


_MODE = []   # the mode class, made once per process


def _make_mode(st):
    if os.environ.get("CGLINT_DISPATCH", "1") == "0":
        return None
    if _MODE:
        return _MODE[0]
    try:
        from torch.utils._python_dispatch import TorchDispatchMode
    except Exception:
        return None
    torch = st.torch
    Tensor = torch.Tensor
    seen = set()

    def report(what, func, caller, extra=None):
        try:
            f = _user_frame(caller)
            stack = _stack_of(f)
            if not stack:
                return
            cap = st.active[-1] if st.active else None
            key = (what, str(func), stack[0][0], stack[0][1], cap.region.rid if cap else None)
            if key in seen:
                return
            seen.add(key)
            ev = {"ev": "op", "what": what, "op": str(func), "stack": stack,
                  "rid": cap.region.rid if cap else None, "t": _now()}
            if extra:
                ev.update(extra)
            st.w.write(ev)
        except Exception as e:
            _warn("operator inspection failed", e)

    has_is_cpu = hasattr(Tensor, "is_cpu")   # PyTorch >= 1.13

    def devices(args, kwargs, out):
        cpu = cuda = False
        for seq in (args, tuple((kwargs or {}).values()), (out,) if not isinstance(out, (list, tuple)) else out):
            for a in seq:
                if isinstance(a, (list, tuple)):
                    items = a
                else:
                    items = (a,)
                for x in items:
                    if isinstance(x, Tensor):
                        # is_cuda / is_cpu: C-level flags, no torch.device made per tensor
                        try:
                            if x.is_cuda:
                                cuda = True
                            elif (x.is_cpu if has_is_cpu else x.device.type == "cpu"):
                                cpu = True
                        except Exception:
                            continue
        return cpu, cuda

    # the C function itself, without torch.cuda's Python wrapper (one call per CUDA operator)
    capturing = getattr(getattr(torch, "_C", None), "_cuda_isCurrentStreamCapturing", None) or \
        torch.cuda.is_current_stream_capturing

    def scalars_and_shapes(cap, name, args, kwargs, caller):
        nums = None
        sig = cap.nops < 8
        cap.nops += 1
        cap.ops = hash((cap.ops, name))
        for seq in (args, (kwargs or {}).values()):
            for a in seq:
                t = type(a)
                if t is float or t is int:
                    nums = (nums or []) + [a]
                elif t is list or t is tuple:
                    for x in a:
                        tx = type(x)
                        if tx is float or tx is int:
                            nums = (nums or []) + [x]
                        elif sig and isinstance(x, Tensor):
                            cap.shapes.append(_shape_of(x))
                elif sig and isinstance(a, Tensor):
                    cap.shapes.append(_shape_of(a))
        if nums and not cap.compiled and caller is not None:
            for v in nums:
                _scalar_at_op(st, cap, caller, v)

    class _Mode(TorchDispatchMode):
        # Recent PyTorch wraps a mode's __torch_dispatch__ in Dynamo's
        # `disable` unless this says no: that wrapper imports torch._dynamo at
        # the first operator (seconds, inside the capture) and stands between
        # every operator and its caller.  The mode runs only in eager code
        # (Dynamo skips frames while a dispatch mode is active), so it is not
        # needed.
        @classmethod
        def _should_skip_dynamo(cls):
            return False

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            try:
                caller = sys._getframe(1)
            except ValueError:      # an autograd engine thread: no Python caller
                caller = None
            try:
                out = func(*args, **(kwargs or {}))
            except BaseException as e:
                report("failed", func, caller, {"error": _exc_record(e)})
                raise
            try:
                cap = st.active[-1] if st.active else None
                name = getattr(func, "__name__", None) or str(func)
                if cap is not None:
                    _note_body_op(cap, caller)
                    if cap.tid == threading.get_ident():
                        scalars_and_shapes(cap, name, args, kwargs, caller)
                base = name.split(".")[0]
                if base in ("_pin_memory", "pin_memory"):
                    if _made_by_user(caller):
                        report("pin", func, caller)
                else:
                    cpu, cuda = devices(args, kwargs, out)
                    if cpu and not cuda and base not in ("_local_scalar_dense", "lift_fresh", "detach"):
                        if _made_by_user(caller):
                            report("cpu", func, caller)
                    elif cuda and not capturing():
                        cur = torch.cuda.current_stream()
                        report("eager", func, caller, {"stream": repr(cur),
                                                       "legacy": getattr(cur, "cuda_stream", None) == 0})
            except Exception as e:
                _warn("operator inspection failed", e)
            return out
    _MODE.append(_Mode)
    return _Mode


def _shape_of(t):
    try:
        return (tuple(t.shape), str(t.dtype))
    except Exception:
        return None


# --------------------------------------------------------------------------
# the wrappers
def _capture_begin_wrapper(orig):
    @functools.wraps(orig)
    def capture_begin(self, *args, **kwargs):
        st = _state
        cap = None
        try:
            if st is not None:
                _on_torch(st)
                region = st.region_for(self, sys._getframe(1))
                info = st.graph_info(self)
                if info is None or info.region is not region:
                    old = info
                    info = _Graph(region)
                    if old is not None:   # the same graph object, now captured at another site
                        info.captures, info.replays = old.captures, old.replays
                    st.set_graph_info(self, info)
                info.reset()
                cap = _Capture(region, self, info)
                cap.cfg = (tuple(type(a).__name__ for a in args),
                           tuple(sorted((k, type(v).__name__ if k == "pool" else repr(v)) for k, v in kwargs.items())))
                caller = sys._getframe(1)
                if caller.f_code.co_name == "__enter__" and caller.f_back is not None:
                    caller = caller.f_back
                cap.with_code = caller.f_code
                uf = _user_frame(sys._getframe(1))
                if uf is not None and not cap.compiled:
                    cap.frame_code = uf.f_code
                    cap.frame_globals = uf.f_globals
                    info.capture_code = uf.f_code
                    try:
                        loc = _frame_locals(uf)
                        cap.module_level = loc is uf.f_globals
                        cap.begin_ids = {k: id(v) for k, v in loc.items()}
                    except Exception:
                        pass
        except Exception as e:
            _warn("capture_begin bookkeeping failed", e)
            cap = None
        try:
            r = orig(self, *args, **kwargs)
        except BaseException as e:
            if cap is not None:
                _record_error(st, cap.region, "begin", e, sys._getframe(1), surface=e)
                cap.region.captures += 1
                st.w.write({"ev": "capture", "rid": cap.region.rid, "n": cap.region.captures,
                            "t0": cap.t0, "t1": _now(), "ok": False, "nodes": None})
            raise
        if cap is not None:
            try:
                st.active.append(cap)
                if not cap.compiled:
                    _start_lines(cap)
                Mode = _make_mode(st)
                if Mode is not None:
                    cap.body_work = False
                    cap.mode = Mode()
                    cap.mode.__enter__()
            except Exception as e:
                _warn("capture_begin bookkeeping failed", e)
        return r
    return capture_begin


def _capture_end_wrapper(orig):
    @functools.wraps(orig)
    def capture_end(self):
        st = _state
        cap = None
        body = sys.exc_info()[1]   # called from graph.__exit__ while the body's exception is handled
        try:
            if st is not None and st.active and st.active[-1].graph is self:
                cap = st.active.pop()
                if body is not None:
                    tb = body.__traceback__
                    if tb is None or tb.tb_frame.f_code is not cap.with_code:
                        body = None   # an exception handled around the capture, not raised in it
                _end_observation(cap)
                _drop_outputs(cap, sys._getframe(1))
        except Exception as e:
            _warn("capture_end bookkeeping failed", e)
        try:
            r = orig(self)
        except BaseException as e:
            if cap is not None:
                _finish_capture(st, cap, False, body, e)
            raise
        if cap is not None:
            _finish_capture(st, cap, body is None, body, None)
        return r
    return capture_end


def _drop_outputs(cap, frame):
    """A tensor name the capture read and then rebound (`b = b + 1` inside
    it) holds the capture's output at its end: replays write that tensor and
    reading it afterwards is right. Only names still bound at the end to the
    tensor the capture read are its inputs, whose rebinding CG504 watches."""
    info = cap.info
    for key, (scope, head, parts, ptr, path, line, text) in list(info.tensors.items()):
        try:
            v = _scope_value(scope, head, parts, frame, info)
            if v.data_ptr() != ptr:
                del info.tensors[key]
        except Exception:
            pass


def _end_observation(cap):
    if cap.mode is not None:
        try:
            cap.mode.__exit__(None, None, None)
        except Exception:
            pass
        cap.mode = None
    _stop_lines(cap)


def _finish_capture(st, cap, ok, body, surface):
    try:
        region = cap.region
        region.captures += 1
        st.w.write({"ev": "capture", "rid": region.rid, "n": region.captures, "t0": cap.t0, "t1": _now(),
                    "ok": bool(ok), "nodes": None})
        if cap.lines:
            st.w.write({"ev": "lines", "rid": region.rid, "n": region.captures,
                        "counts": [[_abspath(p), l, c] for (p, l), c in sorted(cap.lines.items())]})
        if body is not None:
            _record_error(st, region, "capture", body, None, surface=surface)
        elif surface is not None:
            _record_error(st, region, "end", surface, None, surface=surface)
        if ok:
            _note_capture(st, cap)
            # (a capture without the dispatch mode cannot tell: as if it did work of its own)
            only = cap.body_work is False
            region.step_only = only if region.step_only is None else region.step_only and only
    except Exception as e:
        _warn("capture bookkeeping failed", e)


def _note_capture(st, cap):
    """CG705's signal: a graph captured again while it (or a graph of the same
    code on inputs of the same shapes) is being replayed.  One graph per
    bucket shape, each captured once, is not; nor are the several graphs of
    one make_graphed_callables call."""
    region, info = cap.region, cap.info
    same_graph = info.captures > 0 and info.replays > 0
    # the same code on the same shapes doing the same operators with the same
    # capture options: a sweep over configurations (other operators, another
    # optimizer, a pool shared or not) captures a different graph each time
    sig = (hash(frozenset(cap.lines)), tuple(cap.shapes), cap.ops, cap.cfg)
    peers = region.sigs.setdefault(sig, [])
    same_shapes = any(g is not info and g.replays > 0 for g in peers)
    if info not in peers and len(peers) < 64:
        peers.append(info)
    info.captures += 1
    if same_graph or same_shapes:
        region.recaptures += 1
        st.w.write({"ev": "recapture", "rid": region.rid, "n": region.captures, "recaptures": region.recaptures,
                    "same_graph": same_graph, "replays": region.replays, "t": _now()})


def _record_error(st, region, phase, exc, frame, surface=None, thread=None):
    for e in (exc, surface):
        try:
            if e is not None:
                e._cglint_seen = True   # make_graphed_callables must not record it again
        except Exception:
            pass
    try:
        root = _root_context(exc)
        rec = _exc_record(root)
        stack = _tb_stack(root.__traceback__) if root.__traceback__ is not None else []
        if not stack and frame is not None:
            stack = _stack_of(frame)
        ev = {"ev": "error", "phase": phase, "rid": region.rid if region else None,
              "type": rec["type"], "message": rec["message"], "code": rec["code"], "stack": stack,
              "thread": thread or ("main" if threading.current_thread() is threading.main_thread() else
                                   threading.current_thread().name),
              "t": _now()}
        if not stack and root.__traceback__ is not None:
            ev["lib"] = _tb_lib(root.__traceback__)
        if surface is not None and surface is not root:
            s = _exc_record(surface)
            ev["surface"] = "%s: %s" % (s["type"], s["message"])
            ev["surface_code"] = s["code"]
        st.w.write(ev)
    except Exception as e:
        _warn("error bookkeeping failed", e)


def _replay_wrapper(orig):
    @functools.wraps(orig)
    def replay(self):
        st = _state
        region = None
        timing = None
        if st is not None:
            try:
                info = st.graph_info(self)
                if info is not None:
                    region = info.region
                    region.replays += 1
                    info.replays += 1
                    n = region.replays
                    if info.checks:
                        _check_replay(st, info, info.replays, sys._getframe(1))
                    if (2 <= n <= 4 or n % 64 == 0) and len(region.samples) + len(region.pending) < 200:
                        torch = st.torch
                        if not torch.cuda.is_current_stream_capturing():
                            a = torch.cuda.Event(enable_timing=True)
                            b = torch.cuda.Event(enable_timing=True)
                            a.record()
                            timing = (a, b)
                    if n & (n - 1) == 0:
                        _flush_region(st, region)
            except Exception as e:
                _warn("replay bookkeeping failed", e)
        r = orig(self)
        if timing is not None:
            try:
                timing[1].record()
                region.pending.append(timing)
            except Exception:
                pass
        return r
    return replay


def _flush_region(st, region, final=False):
    if final:
        for a, b in region.pending:
            try:
                b.synchronize()
                region.samples.append(a.elapsed_time(b))
            except Exception:
                pass
        region.pending = []
    ev = {"ev": "replays", "rid": region.rid, "n": region.replays, "samples": len(region.samples),
          "mean_ms": (sum(region.samples) / len(region.samples)) if region.samples else None}
    st.w.write(ev)


def _scope_value(scope, head, parts, frame, info):
    kind = scope[0]
    if kind == "local":
        f = _user_frame(frame)
        while f is not None and f.f_code is not info.capture_code:
            f = f.f_back
            f = _user_frame(f) if f is not None else None
        if f is None:
            raise _NoValue()
        loc = _frame_locals(f)
        if head not in loc:
            raise _NoValue()
        root = loc[head]
    elif kind == "global":
        g = scope[1]
        if head not in g:
            raise _NoValue()
        root = g[head]
    else:
        root = scope[1]()
        if root is None:
            raise _NoValue()
    return _resolve_chain(root, parts)


def _check_replay(st, info, n, frame):
    torch = st.torch
    region = info.region
    reported = info.reported
    pending = 0
    for key, (scope, head, parts, ptr, path, line, text) in list(info.tensors.items()):
        if ("t", key) in reported:
            continue
        pending += 1
        try:
            v = _scope_value(scope, head, parts, frame, info)
        except Exception:
            continue
        try:
            if not isinstance(v, torch.Tensor) or v.data_ptr() == ptr:
                continue
        except Exception:
            continue
        reported.add(("t", key))
        st.w.write({"ev": "rebind", "rid": region.rid, "expr": text, "path": path, "line": line,
                    "replay": n, "t": _now()})
    for key, (scope, head, parts, val, path, line, text, branch) in list(info.scalars.items()):
        if ("s", key) in reported:
            continue
        pending += 1
        try:
            v = _scope_value(scope, head, parts, frame, info)
        except Exception:
            continue
        if type(v) not in (int, float, bool) or v == val:
            continue
        reported.add(("s", key))
        ev = {"ev": "scalar", "rid": region.rid, "expr": text, "path": path, "line": line,
              "capture": val, "now": v, "replay": n, "t": _now()}
        if branch:
            ev["branch"] = True
        st.w.write(ev)
    for key, (wr, gi, name, val, path, line) in list(info.hparams.items()):
        if ("h", key) in reported:
            continue
        pending += 1
        opt = wr()
        if opt is None:
            continue
        try:
            v = opt.param_groups[gi].get(name)
        except Exception:
            continue
        if type(v) not in (int, float) or v == val:
            continue
        reported.add(("h", key))
        st.w.write({"ev": "hparam", "rid": region.rid, "expr": "param_groups[%d][%r]" % (gi, name),
                    "optimizer": type(opt).__name__, "path": path, "line": line, "capture": val,
                    "now": v, "replay": n, "t": _now()})
    if not pending:
        info.checks = False    # everything was reported: nothing left to compare


def _optimizer_pre_hook(opt, args, kwargs):
    st = _state
    if st is None or not st.active:
        return None
    try:
        cap = st.active[-1]
        region, info = cap.region, cap.info
        uf = _user_frame(sys._getframe(1))
        path, line = (_abspath(uf.f_code.co_filename), uf.f_lineno) if uf is not None else (region.path, region.line)
        wr = weakref.ref(opt)
        for gi, group in enumerate(opt.param_groups):
            for name, v in group.items():
                if name == "params" or type(v) not in (int, float) or isinstance(v, bool):
                    continue
                key = (id(opt), gi, name)
                if key not in info.hparams and len(info.hparams) < 256:
                    info.hparams[key] = (wr, gi, name, v, path, line)
                    info.checks = True
    except Exception as e:
        _warn("optimizer bookkeeping failed", e)
    return None


def _mgc_wrapper(orig):
    @functools.wraps(orig)
    def make_graphed_callables(*args, **kwargs):
        st = _state
        pushed = False
        if st is not None:
            try:
                _on_torch(st)
                uf = _user_frame(sys._getframe(1))
                site = (_abspath(uf.f_code.co_filename), uf.f_lineno) if uf is not None else ("?", 0)
                st.mgc.append(site)
                pushed = True
                key = (site[0], site[1], "make_graphed_callables")
                r = st.regions.get(key)
                if r is None:
                    r = _Region(len(st.regions) + 1, site[0], site[1], "make_graphed_callables")
                    st.regions[key] = r
                    st.w.write({"ev": "region", "rid": r.rid, "path": site[0], "line": site[1],
                                "kind": "make_graphed_callables", "t": _now()})
                r.entries += 1
                st.w.write({"ev": "entries", "rid": r.rid, "n": r.entries})
            except Exception as e:
                _warn("make_graphed_callables bookkeeping failed", e)
        try:
            return orig(*args, **kwargs)
        except BaseException as e:
            if st is not None and pushed:
                key = (st.mgc[-1][0], st.mgc[-1][1], "make_graphed_callables")
                # errors inside a capture are recorded there; this is the call's own
                if not getattr(e, "_cglint_seen", False):
                    _record_error(st, st.regions.get(key), "graphed", e, sys._getframe(1), surface=e)
            raise
        finally:
            if pushed:
                st.mgc.pop()
    return make_graphed_callables


def _on_torch(st):
    if st.torch is None:
        st.torch = sys.modules.get("torch")
    if not st.hooked_optim and st.torch is not None:
        st.hooked_optim = True
        try:
            from torch.optim.optimizer import register_optimizer_step_pre_hook
            register_optimizer_step_pre_hook(_optimizer_pre_hook)
        except Exception as e:
            _warn("cannot watch optimizers", e)
    st.write_env()


def _prepare_captures(st):
    """The observer's one-time set-up for captures, done when the program
    makes its first CUDAGraph (a capture is coming) rather than inside the
    first capture, which it made 1.5x slower (docs/gpu-verification.md run
    16): the optimizer hook, the env event, the dispatch mode's class and
    torch's first entry into a dispatch mode (no operator runs)."""
    if st.prepared:
        return
    st.prepared = True
    try:
        _on_torch(st)
        Mode = _make_mode(st)
        if Mode is not None:
            m = Mode()
            m.__enter__()
            m.__exit__(None, None, None)
    except Exception as e:
        _warn("capture set-up failed", e)


def _graph_new_wrapper(orig):
    def __new__(cls, *args, **kwargs):
        st = _state
        if st is not None and not st.prepared:
            _prepare_captures(st)
        if orig is object.__new__:        # a class without a __new__ of its own
            return orig(cls)
        return orig(cls, *args, **kwargs)
    return staticmethod(__new__)


def _patch_graphs(mod):
    if getattr(mod, "_cglint_patched", False):
        return
    # PY_START on from torch's import, not from the first capture: every
    # function the program runs is instrumented once when it first runs
    # (the warm-up before a capture, usually), not all at once inside the
    # first capture (CGLINT_LINES_AT=capture: the first capture, as before)
    if os.environ.get("CGLINT_LINES_AT", "torch") == "torch":
        _monitoring_setup()
    try:
        CG = mod.CUDAGraph
        CG.__new__ = _graph_new_wrapper(CG.__new__)
        CG.capture_begin = _capture_begin_wrapper(CG.capture_begin)
        CG.capture_end = _capture_end_wrapper(CG.capture_end)
        CG.replay = _replay_wrapper(CG.replay)
        if hasattr(mod, "make_graphed_callables"):
            mod.make_graphed_callables = _mgc_wrapper(mod.make_graphed_callables)
        mod._cglint_patched = True
    except Exception as e:
        _warn("cannot wrap torch.cuda.graphs", e)


# --------------------------------------------------------------------------
# torch.compile(mode="reduce-overhead"): Dynamo's graph breaks (CG901) and
# inductor's reasons for skipping CUDA graphs (CG902), from their own hooks
_hooks_fired = set()


def _call_site(f):
    """The user's frame that called into torch.compile's machinery (the
    compiled function's caller), or the innermost user frame."""
    frames = []
    while f is not None and len(frames) < 200:
        frames.append(f)
        f = f.f_back
    return _outside_compile(frames)


def _backend_cudagraphs(obj, depth=0):
    """Whether a Dynamo backend (as convert_frame holds it) runs CUDA graphs:
    torch.compile(mode="reduce-overhead"), options={"triton.cudagraphs": True},
    backend="cudagraphs".  None when it cannot tell."""
    if obj is None or depth > 6:
        return None
    if isinstance(obj, functools.partial):
        return _backend_cudagraphs(obj.func, depth + 1)
    try:
        d = object.__getattribute__(obj, "__dict__")
    except Exception:
        return None
    cfg = d.get("config")
    name = d.get("compiler_name") or d.get("_compiler_name")
    if type(cfg) is dict and ("triton.cudagraphs" in cfg or name == "inductor"):
        return bool(cfg.get("triton.cudagraphs", False))
    if name == "cudagraphs":
        return True
    for attr in ("_torchdynamo_orig_backend", "_torchdynamo_orig_callable", "compiler_fn", "_inner_convert",
                 "backend", "_orig_backend"):
        sub = d.get(attr)
        if sub is not None and sub is not obj:
            r = _backend_cudagraphs(sub, depth + 1)
            if r is not None:
                return r
    return None


def _compile_uses_cudagraphs(f):
    cfg = sys.modules.get("torch._inductor.config")
    try:
        if cfg is not None and cfg.triton.cudagraphs is True:
            return True
    except Exception:
        pass
    g = f
    n = 0
    while g is not None and n < 80:
        if "/torch/_dynamo/" in g.f_code.co_filename:
            try:
                loc = _frame_locals(g)
            except Exception:
                loc = {}
            for name in ("compiler_fn", "backend", "self"):
                r = _backend_cudagraphs(loc.get(name))
                if r is not None:
                    return r
        g = g.f_back
        n += 1
    return None


_FILE_LINE_RE = re.compile(r'File "([^"]+)", line (\d+)')


def _user_place(frames):
    """The innermost user frame of [(filename, lineno)...] (outermost first)."""
    for fn, ln in reversed(frames):
        if fn and _is_user(fn):
            return _abspath(fn), int(ln)
    return None


def _on_break(reason, user_stack, code_options, how):
    st = _state
    if st is None:
        return
    _hooks_fired.add("break")
    frames = []
    for fr in user_stack or ():
        fn = getattr(fr, "filename", None)
        ln = getattr(fr, "lineno", None)
        if fn and ln:
            frames.append((fn, ln))
    place = _user_place(frames)
    if place is None and isinstance(code_options, dict):
        fn, ln = code_options.get("co_filename"), code_options.get("co_firstlineno")
        if fn and ln and _is_user(fn):
            place = (_abspath(fn), int(ln))
    caller = sys._getframe(2)
    site = _call_site(caller)
    reason = _break_reason(str(reason or ""))
    key = (place, reason[:80])
    if key in st.breaks:
        return
    st.breaks.add(key)
    ev = {"ev": "break", "reason": reason, "how": how, "cudagraphs": _compile_uses_cudagraphs(caller),
          "t": _now()}
    if place:
        ev["path"], ev["line"] = place
    if site:
        ev["site"] = list(site)
    st.w.write(ev)


def _break_reason(text):
    """The reason of a graph break, without the header recent versions put
    first ("Encountered graph break when attempting to trace CALL: ...:")."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if ln.startswith("Encountered graph break when attempting to trace"):
            continue
        if ln.startswith("Graph Break Reason:"):
            ln = ln[len("Graph Break Reason:"):].strip()
        return ln[:240]
    return lines[0][:240] if lines else "graph break"


def _on_skip(msg):
    st = _state
    if st is None:
        return
    _hooks_fired.add("skip")
    text = str(msg or "")
    place = _user_place(_FILE_LINE_RE.findall(text))
    site = _call_site(sys._getframe(2))
    reason = _first_line(text, 240)
    key = (place, reason[:80])
    if key in st.skips:
        return
    st.skips.add(key)
    ev = {"ev": "skip", "reason": reason, "t": _now()}
    if place:
        ev["path"], ev["line"] = place
    if site:
        ev["site"] = list(site)
    st.w.write(ev)


def _break_args(args, kwargs):
    reason = kwargs.get("reason")
    exc = kwargs.get("exc")
    stack = kwargs.get("user_stack")
    code_options = kwargs.get("code_options")
    for a in args:
        if reason is None and isinstance(a, str):
            reason = a
        elif code_options is None and type(a) is dict:
            code_options = a
        elif exc is None and isinstance(a, BaseException):
            exc = a
        elif stack is None and isinstance(a, list):
            stack = a
    if stack is None and exc is not None:
        stack = getattr(exc, "real_stack", None)
    if not reason and exc is not None:
        reason = getattr(exc, "msg", None) or str(exc)
    return reason, stack, code_options


def _wrap_break_logger(orig):
    @functools.wraps(orig)
    def log_graph_break(*args, **kwargs):
        try:
            reason, stack, code_options = _break_args(args, kwargs)
            _on_break(reason, stack, code_options, "log_graph_break")
        except Exception as e:
            _warn("graph-break bookkeeping failed", e)
        return orig(*args, **kwargs)
    log_graph_break._cglint = True
    return log_graph_break


def _patch_dynamo_convert(mod):
    """torch._dynamo.symbolic_convert: log_graph_break (a method of
    InstructionTranslatorBase in recent versions, a function before)."""
    try:
        cls = getattr(mod, "InstructionTranslatorBase", None)
        for c in getattr(cls, "__mro__", ()):
            m = c.__dict__.get("log_graph_break")
            if m is not None:
                if callable(m) and not getattr(m, "_cglint", False):
                    c.log_graph_break = _wrap_break_logger(m)
                break
        fn = getattr(mod, "log_graph_break", None)
        if callable(fn) and not getattr(fn, "_cglint", False):
            mod.log_graph_break = _wrap_break_logger(fn)
    except Exception as e:
        _warn("cannot watch Dynamo's graph breaks", e)


def _patch_dynamo_exc(mod):
    """torch._dynamo.exc: Unsupported.add_to_stats("graph_break") is how
    older versions count a graph break (with the user's stack on the
    exception)."""
    try:
        U = getattr(mod, "Unsupported", None)
        orig = getattr(U, "add_to_stats", None) if U is not None else None
        if orig is None or getattr(orig, "_cglint", False):
            return

        @functools.wraps(orig)
        def add_to_stats(self, category="unimplemented", *a, **kw):
            try:
                if category == "graph_break":
                    _on_break(getattr(self, "msg", None) or str(self), getattr(self, "real_stack", None), None,
                              "add_to_stats")
            except Exception as e:
                _warn("graph-break bookkeeping failed", e)
            return orig(self, category, *a, **kw)
        add_to_stats._cglint = True
        U.add_to_stats = add_to_stats
    except Exception as e:
        _warn("cannot watch Dynamo's graph breaks", e)


def _patch_cudagraph_utils(mod):
    """torch._inductor.cudagraph_utils.log_cudagraph_skip_and_bump_counter:
    every reason inductor gives for not using CUDA graphs."""
    try:
        orig = getattr(mod, "log_cudagraph_skip_and_bump_counter", None)
        if orig is None or getattr(orig, "_cglint", False):
            return

        @functools.wraps(orig)
        def log_cudagraph_skip_and_bump_counter(msg, *a, **kw):
            try:
                _on_skip(msg)
            except Exception as e:
                _warn("cudagraph-skip bookkeeping failed", e)
            return orig(msg, *a, **kw)
        log_cudagraph_skip_and_bump_counter._cglint = True
        mod.log_cudagraph_skip_and_bump_counter = log_cudagraph_skip_and_bump_counter
        # modules that imported it by name before this hook ran
        for name, m in list(sys.modules.items()):
            if name.startswith("torch._inductor") and m is not mod and \
                    getattr(m, "log_cudagraph_skip_and_bump_counter", None) is orig:
                try:
                    m.log_cudagraph_skip_and_bump_counter = log_cudagraph_skip_and_bump_counter
                except Exception:
                    pass
    except Exception as e:
        _warn("cannot watch inductor's cudagraph skips", e)


_PATCHES = {
    "torch.cuda.graphs": _patch_graphs,
    "torch._dynamo.symbolic_convert": _patch_dynamo_convert,
    "torch._dynamo.exc": _patch_dynamo_exc,
    "torch._inductor.cudagraph_utils": _patch_cudagraph_utils,
}


def _unreported_breaks(st):
    """Graph breaks Dynamo counted that no hook saw (a version whose hooks
    moved): their reasons, without a place."""
    if "break" in _hooks_fired:
        return
    u = sys.modules.get("torch._dynamo.utils")
    try:
        gb = dict(u.counters.get("graph_break", {})) if u is not None else {}
    except Exception:
        gb = {}
    for reason, n in list(gb.items())[:32]:
        st.w.write({"ev": "break", "reason": _first_line(str(reason), 240), "how": "counters", "count": n,
                    "cudagraphs": None, "t": _now()})


# --------------------------------------------------------------------------
# the import hook: patch torch's modules as soon as they have run
class _Finder:
    def find_spec(self, fullname, path=None, target=None):
        patch = _PATCHES.get(fullname)
        if patch is None:
            return None
        import importlib.machinery
        spec = importlib.machinery.PathFinder.find_spec(fullname, path)
        if spec is None or spec.loader is None:
            return None
        loader = spec.loader
        orig_exec = loader.exec_module

        def exec_module(module):
            orig_exec(module)
            patch(module)
        try:
            loader.exec_module = exec_module
        except Exception:
            return None
        return spec


def _thread_excepthook_wrapper(orig):
    def hook(args):
        st = _state
        try:
            if st is not None and st.active and args.exc_value is not None:
                name = args.thread.name if args.thread is not None else "thread"
                _record_error(st, st.active[-1].region, "thread", args.exc_value, None, thread=name)
        except Exception:
            pass
        return orig(args)
    return hook


def _excepthook_wrapper(orig):
    """An exception that ends the program while a capture is open (a manual
    capture_begin() whose capture_end() never ran)."""
    def hook(etype, value, tb):
        st = _state
        try:
            if st is not None and st.active and value is not None and not getattr(value, "_cglint_seen", False):
                cap = st.active.pop()
                _end_observation(cap)
                _finish_capture(st, cap, False, value, None)
            elif st is not None and "rank" in st.rank and value is not None and not getattr(value, "_cglint_seen", False):
                # a rank that dies outside a capture (NCCL aborted after another
                # rank failed): what it died of, so the report can say whose
                # failure it was; never a finding of its own
                _record_error(st, None, "uncaught", value, None)
        except Exception:
            pass
        return orig(etype, value, tb)
    return hook


def _at_exit():
    st = _state
    if st is None or st.pid != os.getpid():
        return
    try:
        while st.active:   # a capture begun and never ended
            cap = st.active.pop()
            _end_observation(cap)
            cap.region.captures += 1
            st.w.write({"ev": "capture", "rid": cap.region.rid, "n": cap.region.captures, "t0": cap.t0,
                        "t1": _now(), "ok": False, "nodes": None})
            st.w.write({"ev": "error", "phase": "end", "rid": cap.region.rid, "type": "CaptureNotEnded",
                        "message": "the capture begun here never ended: the process exited during it",
                        "code": None, "stack": [[cap.region.path, cap.region.line, "?"]], "thread": "main",
                        "t": _now()})
        for r in st.regions.values():
            if r.replays or r.pending:
                _flush_region(st, r, final=True)
            ev = _eager_of(r)
            if ev is not None:
                st.w.write(ev)
        _unreported_breaks(st)
        ev = {"ev": "exit", "t": _now(), "cuda_available": None, "cuda_initialized": None,
              "visible": os.environ.get("CUDA_VISIBLE_DEVICES")}
        t = sys.modules.get("torch")
        if t is not None:
            try:
                init = t.cuda.is_initialized()
                ev["cuda_initialized"] = bool(init)
                # is_available() on a machine with a GPU would initialise the
                # driver now: ask only when CUDA is up or no device is there
                if init or not (os.path.exists("/dev/nvidiactl") or os.path.exists("/dev/nvidia0")):
                    ev["cuda_available"] = bool(t.cuda.is_available())
            except Exception:
                pass
        st.w.write(ev)
    except Exception as e:
        _warn("exit bookkeeping failed", e)


def _after_fork():
    st = _state
    if st is None:
        return
    st.w = _Writer(st.w.dir)
    st.active = []
    st.pid = os.getpid()


def activate(events_dir=None, hints=None):
    global _state
    with _lock:
        if _state is not None:
            return _state
        events_dir = events_dir or os.environ.get("CGLINT_EVENTS_DIR") or os.path.abspath("cglint-events")
        hints = hints or os.environ.get("CGLINT_HINTS")
        _init_skip_dirs()
        st = _State(os.path.abspath(events_dir), hints)
        st.pid = os.getpid()
        st.rank = _rank_env()
        _state = st
        st.w.write({"ev": "process", "v": EVENTS_VERSION, "source": "python", "pid": os.getpid(),
                    "ppid": os.getppid(), "argv": list(getattr(sys, "argv", []) or []), "cwd": os.getcwd(),
                    "python": sys.version.split()[0], "t": _now(), **st.rank,
                    **({"command": _command_text()} if _command_text() is not None else {})})
        missing = False
        for name, patch in _PATCHES.items():
            mod = sys.modules.get(name)
            if mod is not None:
                patch(mod)
            else:
                missing = True
        mod = sys.modules.get("torch.cuda.graphs")
        if mod is not None:
            tc = sys.modules.get("torch.cuda")
            if tc is not None and getattr(tc, "make_graphed_callables", None) is not None:
                tc.make_graphed_callables = mod.make_graphed_callables
        if missing:
            sys.meta_path.insert(0, _Finder())
        if os.environ.get("CGLINT_LINES_AT") == "start":
            _monitoring_setup()
        threading.excepthook = _thread_excepthook_wrapper(threading.excepthook)
        sys.excepthook = _excepthook_wrapper(sys.excepthook)
        atexit.register(_at_exit)
        try:
            os.register_at_fork(after_in_child=_after_fork)
        except Exception:
            pass
        return st
