"""python -m cglint_runtime [--events DIR] [--hints FILE] (SCRIPT | -m MODULE | -c CODE) [ARGS...]

Runs a Python program under the cglint observer, as `python SCRIPT ARGS`
would, and writes its events (one JSONL file per process) into DIR
(default: $CGLINT_EVENTS_DIR or ./cglint-events).  Child processes started
with the same Python (DDP ranks, torchrun workers, subprocesses) are observed
too: the observer's sitecustomize is put on their PYTHONPATH.  `cglint run`
does the same without this launcher; use this one to collect events and join
them later, or where cglint itself is not installed."""
import os
import runpy
import sys


def main(argv):
    events = os.environ.get("CGLINT_EVENTS_DIR") or os.path.abspath("cglint-events")
    hints = os.environ.get("CGLINT_HINTS")
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in ("-m", "-c"):
        a = argv[i]
        if a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        if a in ("--events", "--hints") and i + 1 < len(argv):
            if a == "--events":
                events = os.path.abspath(argv[i + 1])
            else:
                hints = os.path.abspath(argv[i + 1])
            i += 2
            continue
        if a.startswith("--events="):
            events = os.path.abspath(a.split("=", 1)[1])
        elif a.startswith("--hints="):
            hints = os.path.abspath(a.split("=", 1)[1])
        else:
            sys.stderr.write("cglint_runtime: unknown option %s (see --help)\n" % a)
            return 2
        i += 1
    rest = argv[i:]
    if not rest:
        sys.stderr.write("cglint_runtime: no program to run (see --help)\n")
        return 2
    os.makedirs(events, exist_ok=True)
    os.environ["CGLINT_EVENTS_DIR"] = events
    if hints:
        os.environ["CGLINT_HINTS"] = hints
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    site = os.path.join(here, "_cglint_site")
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([site, here] + ([old] if old else []))

    from . import observer
    observer.activate(events, hints)

    if rest[0] == "-m":
        if len(rest) < 2:
            sys.stderr.write("cglint_runtime: -m needs a module\n")
            return 2
        sys.argv = [rest[1]] + rest[2:]
        sys.path.insert(0, os.getcwd())
        runpy.run_module(rest[1], run_name="__main__", alter_sys=True)
    elif rest[0] == "-c":
        if len(rest) < 2:
            sys.stderr.write("cglint_runtime: -c needs code\n")
            return 2
        sys.argv = ["-c"] + rest[2:]
        sys.path.insert(0, "")
        exec(compile(rest[1], "<string>", "exec"), {"__name__": "__main__"})
    else:
        script = rest[0]
        sys.argv = rest
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
