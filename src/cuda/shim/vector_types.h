/* cglint shim: see cglint_cuda_runtime.h */
#include "cglint_cuda_runtime.h"
