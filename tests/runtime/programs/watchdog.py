import json
import os
import threading
import time
import torch


# A stand-in for NCCL's watchdog thread: during the capture it queries an
# event from a thread that holds no Python frame, as the CUPTI library would
# see it (no Python stack, no frame in the program), and the capture is
# invalidated.
def watchdog_query():
    d = os.environ["CGLINT_EVENTS_DIR"]
    with open(os.path.join(d, "cupti-%d-fake.jsonl" % os.getpid()), "w") as f:
        f.write(json.dumps({"ev": "process", "v": 1, "source": "cupti", "pid": os.getpid(), "ppid": 1,
                            "t": time.monotonic_ns()}) + "\n")
        f.write(json.dumps({"ev": "api", "api": "cudaEventQuery", "code": "cudaErrorStreamCaptureUnsupported",
                            "result": 900, "capturing": 1, "capturing_thread": False, "tid": 99,
                            "t": time.monotonic_ns(), "py": [], "native": []}) + "\n")
    torch.cuda._invalidate()


static_x = torch.ones(4, device="cuda")
g = torch.cuda.CUDAGraph()
try:
    with torch.cuda.graph(g):
        y = static_x * 2
        t = threading.Thread(target=watchdog_query)
        t.start()
        t.join()
except RuntimeError as e:
    print("capture failed:", e)
