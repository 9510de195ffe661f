import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
procs = [subprocess.Popen([sys.executable, os.path.join(here, "rank_fails.py"), str(r)]) for r in range(2)]
sys.exit(max(p.wait() for p in procs))
