import subprocess
import sys
import os

here = os.path.dirname(os.path.abspath(__file__))
rc = subprocess.call([sys.executable, os.path.join(here, "host_io.py")])
sys.exit(rc)
