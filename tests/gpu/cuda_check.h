// KILN_CUDA_CHECK(call): the host harnesses' guard on a CUDA runtime call — prints the call, the
// error and where, and exits with status 2 (a harness failure, not a wrong result).
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define KILN_CUDA_CHECK(x)                                                                      \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x,                     \
                         cudaGetErrorString(e_));                                               \
            std::exit(2);                                                                       \
        }                                                                                       \
    } while (0)
