"""Fake Dynamo: torch.compile's front end, enough to show the observer a
graph break through Dynamo's own hooks (InstructionTranslatorBase.
log_graph_break, Unsupported.add_to_stats, counters) and a compiled region
captured by inductor's CUDA graph trees."""
