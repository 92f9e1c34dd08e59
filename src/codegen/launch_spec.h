#pragma once
// How to launch the kernels `emit_cuda` generates, as data: the entry parameters the caller
// passes, the compiled-in sizes, and the kernel launches in order, each with its grid, block,
// dynamic shared memory and arguments (a pointer to an entry parameter, or a TMA tensor map of
// one). The C++ launcher in the generated source is written from this (launcher.h) and the
// runtime (src/runtime/) launches from it through the driver API, so the two cannot disagree.
// JSON form: docs/runtime.md (the kernel cache stores it next to the cubin).
//
// Guarantees: from_json(to_json(s)) == s; from_json refuses (Diagnostic) any document that is
// not a well-formed spec (missing fields, unknown dtypes, an argument naming no parameter).
#include "ir/diagnostic.h"
#include "ir/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln::codegen {

struct SpecParam {
    std::string name;
    ir::DType dtype = ir::DType::F32;
    std::vector<int64_t> shape; // row-major, at the compiled sizes
    ir::Privilege privilege = ir::Privilege::Read;
    // Not passed by the caller: scratch the launcher (or the runtime) allocates and keeps, which
    // the kernels fully rewrite before reading on every launch (a split-K partial sum).
    bool workspace = false;
    int64_t bytes() const;
    bool operator==(const SpecParam&) const = default;
};

// A tiled TMA tensor map over an entry parameter (cuTensorMapEncodeTiled's arguments).
struct SpecTensorMap {
    ir::DType dtype = ir::DType::BF16;
    std::vector<uint64_t> dims;          // innermost first
    std::vector<uint64_t> strides_bytes; // dims 1.. (one fewer than dims)
    std::vector<uint32_t> box;           // innermost first
    int swizzle_bytes = 128;             // 0 (none), 32, 64 or 128
    bool operator==(const SpecTensorMap&) const = default;
};

struct SpecArg {
    enum class Kind { Pointer, TensorMap };
    Kind kind = Kind::Pointer;
    int param = 0;     // index into LaunchSpec::params
    SpecTensorMap map; // Kind::TensorMap only
    bool operator==(const SpecArg&) const = default;
};

struct KernelLaunch {
    std::string symbol;      // extern "C" __global__ name
    int64_t tiles = 1;       // work units (one per cluster of `cluster` CTAs) the work divides into
    bool persistent = false; // grid = min(tiles, resident clusters), each cluster loops over tiles
    int threads = 128;
    int64_t smem_bytes = 0; // dynamic shared memory
    std::vector<SpecArg> args;
    int cluster = 1; // CTAs per thread-block cluster (launch attribute when > 1)
    // Launched with programmatic stream serialization: it may start while the previous kernel
    // runs, and waits for it (griddepcontrol.wait) before touching what that kernel writes.
    bool overlaps_previous = false;
    // Grid size in CTAs, given how many clusters (CTAs when cluster = 1: the SM count) can be
    // resident at once.
    int64_t grid(int64_t resident) const {
        return (persistent && resident < tiles ? resident : tiles) * cluster;
    }
    bool operator==(const KernelLaunch&) const = default;
};

struct LaunchSpec {
    std::string program;
    std::vector<SpecParam> params; // entry parameters in declaration order, then workspaces
    std::vector<std::pair<std::string, int64_t>> sizes; // launcher argument order
    std::vector<KernelLaunch> kernels;                  // launched in this order, one stream
    bool operator==(const LaunchSpec&) const = default;
};

std::string to_json(const LaunchSpec& spec);
Result<LaunchSpec> launch_spec_from_json(const std::string& text);

} // namespace kiln::codegen
