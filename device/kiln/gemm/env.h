// kiln::gemm's A/B switches: environment variables that turn a default off for experiments.
// Plain C++ (no CUDA), so the host dispatch and the launcher share it.
#pragma once
#include <cstdlib>

namespace kiln::gemm {

/// True where the environment variable `name` starts with '0' (callers keep the answer in a
/// static, read once per process).
inline bool env_off(const char* name) {
    const char* e = std::getenv(name);
    return e && e[0] == '0';
}

/// The integer value of the environment variable `name`, or `fallback` where it is unset
/// (callers keep the answer in a static, read once per process).
inline int env_int(const char* name, int fallback) {
    const char* e = std::getenv(name);
    return e ? std::atoi(e) : fallback;
}

}  // namespace kiln::gemm
