"""Fake tracing: a `.item()` or `print(` line of the compiled function is a
graph break, an in-place `.add_(`/`.copy_(` of an argument makes inductor
skip CUDA graphs, the way Dynamo and inductor report them."""
import inspect
import traceback

from torch._inductor.cudagraph_utils import log_cudagraph_skip_and_bump_counter

from . import exc, symbolic_convert


def convert_frame(fn, compiler_fn):
    lines, first = inspect.getsourcelines(fn)
    path = inspect.getsourcefile(fn)
    code_options = {"co_filename": path, "co_firstlineno": first}
    cudagraphs = bool(compiler_fn.config.get("triton.cudagraphs"))
    skip = None
    broke = False
    for i, text in enumerate(lines):
        ln = first + i
        if ".item()" in text or "print(" in text:
            reason = "Tensor.item" if ".item()" in text else "builtin: print"
            e = exc.Unsupported(reason)
            e.real_stack = [traceback.FrameSummary(path, ln, fn.__name__)]
            symbolic_convert.InstructionTranslatorBase().log_graph_break(code_options, reason, e)
            e.add_to_stats("graph_break")
            broke = True
        if (".add_(" in text or ".copy_(" in text) and cudagraphs and skip is None:
            skip = ln
            log_cudagraph_skip_and_bump_counter(
                "skipping cudagraphs due to mutated inputs (1 instances). Found from : \n"
                '   File "%s", line %d, in %s\n    %s' % (path, ln, fn.__name__, text.strip()))
    if cudagraphs and skip is None and not broke:   # (a function with breaks runs eagerly here)
        from torch._inductor import cudagraph_trees
        return cudagraph_trees.cudagraphify(fn)
    return fn
