# Stands in for a CUDA C program built without -g under the CUPTI library:
# writes the events the library writes for one capture whose call site has
# no line information (no Python frames, no native frames that map to a line).
# It stands for a native child process (a pid that is not this Python's).
import os

d = os.environ["CGLINT_EVENTS_DIR"]
pid = os.getpid() + 4000000
with open(os.path.join(d, "cupti-%d-1.jsonl" % pid), "w") as f:
    for line in ('{"ev":"process","v":1,"source":"cupti","pid":%d,"ppid":%d,"t":1}' % (pid, os.getpid()),
                 '{"ev":"region","rid":1,"t":2,"py":[],"native":[]}',
                 '{"ev":"capture","rid":1,"t0":3,"t1":4,"ok":true,"nodes":20}',
                 '{"ev":"capture","rid":1,"t0":5,"t1":6,"ok":true,"nodes":20}',
                 '{"ev":"replays","rid":1,"n":10}',
                 '{"ev":"exit","t":7,"dropped":0}'):
        f.write(line + "\n")
