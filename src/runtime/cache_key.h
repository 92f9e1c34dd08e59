#pragma once
// The kernel cache's key: a SHA-256 over everything that decides the cubin — the generated
// source (which holds the program, mapping and sizes), its launch spec, the kiln version (with
// its git hash), the device headers compiled into kiln, the NVRTC version and target, and the
// GPU (name and compute capability). A change to any one gives a different key.
#include <string>

namespace kiln::runtime {

struct CacheKeyParts {
    std::string source;
    std::string spec_json;
    std::string kiln_version;
    std::string nvrtc_version;
    std::string gpu; // DeviceInfo::describe(), or the target alone when compiling without a GPU
};

// "0.1.0+<git hash at configure time>".
std::string kiln_version();

// The parts of the running kiln and NVRTC, for `source`/`spec_json` on `gpu`.
CacheKeyParts key_parts(std::string source, std::string spec_json, std::string gpu);

// 64 hex digits.
std::string cache_digest(const CacheKeyParts& parts);

} // namespace kiln::runtime
