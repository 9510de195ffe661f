import logging

graph_break_log = logging.getLogger("torch._dynamo.symbolic_convert.__graph_breaks")


class InstructionTranslatorBase:
    def log_graph_break(self, code_options, reason, exc):
        graph_break_log.debug("Graph break in user code at %s", reason)
