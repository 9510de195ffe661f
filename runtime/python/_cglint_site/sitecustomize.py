"""sitecustomize injected by `cglint run` (through PYTHONPATH): start the
cglint observer in every Python process of the run, DDP ranks and workers
included, then run the sitecustomize this one shadows, if any."""
import os as _os
import sys as _sys


def _cglint_start():
    if not _os.environ.get("CGLINT_EVENTS_DIR") or _os.environ.get("CGLINT_RUNTIME_OFF"):
        return
    try:
        import cglint_runtime.observer as _obs
        _obs.activate()
    except Exception as e:  # never break the program
        _sys.stderr.write("cglint: the runtime observer did not start: %r\n" % (e,))


def _cglint_chain():
    here = _os.path.dirname(_os.path.abspath(__file__))
    for p in list(_sys.path):
        try:
            if not p or _os.path.abspath(p) == here:
                continue
            f = _os.path.join(p, "sitecustomize.py")
            if _os.path.isfile(f):
                import importlib.util
                spec = importlib.util.spec_from_file_location("_cglint_chained_sitecustomize", f)
                mod = importlib.util.module_from_spec(spec)
                spec.loader.exec_module(mod)
                return
        except Exception as e:
            _sys.stderr.write("cglint: error in %s/sitecustomize.py: %r\n" % (p, e))
            return


_cglint_start()
_cglint_chain()
