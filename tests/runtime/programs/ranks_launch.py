import os
import subprocess
import sys

# A stand-in for `torchrun --nproc_per_node=2`: each worker gets RANK,
# LOCAL_RANK and WORLD_SIZE as torchrun sets them.  argv[1]: the worker.
here = os.path.dirname(os.path.abspath(__file__))
worker = os.path.join(here, sys.argv[1])
procs = []
for r in range(2):
    env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE="2")
    procs.append(subprocess.Popen([sys.executable, worker], env=env))
sys.exit(max(p.wait() for p in procs))
