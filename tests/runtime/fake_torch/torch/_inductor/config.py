class triton:
    cudagraphs = False
