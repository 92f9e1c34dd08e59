#pragma once
// Command-line overrides of a parsed program (`kiln compile/run --tunable, --pipeline, --dtype,
// --cluster`):
// the knobs a user turns per problem shape without editing the .kiln file, as cuBLAS picks a
// kernel per shape. Tunables and pipelining depth change only the mapping, so the result stays
// the program's; an element-type override changes the program's precision on purpose (the same
// GEMM in f16 instead of bf16) and the reference follows it.
//
// Requires: a program that parsed. Guarantees: a new program with the overrides applied, or
// diagnostics naming the override and the instance, tunable or type at fault; nothing is applied
// partially.
#include "ir/diagnostic.h"
#include "ir/program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::ir {

// `NAME=V` sets NAME in every instance whose variant declares it; `INSTANCE.NAME=V` in one.
struct TunableOverride {
    std::optional<std::string> instance;
    std::string name;
    int64_t value = 0;
};

// `INSTANCE=D`: the software-pipelining depth of that instance's srange loops.
struct PipelineOverride {
    std::string instance;
    int64_t depth = 0;
};

// `FROM=TO`: every tensor of element type FROM (parameters and `let ... = tensor`) becomes TO.
struct DTypeOverride {
    DType from = DType::BF16;
    DType to = DType::F16;
};

struct Overrides {
    // Default member initializers: a designated initializer may name any subset of them.
    std::vector<TunableOverride> tunables{};
    std::vector<PipelineOverride> pipelines{};
    std::vector<DTypeOverride> dtypes{};
    // CTAs per cluster of the warp-specialized BLOCK instance (mapping::set_cluster).
    std::optional<int64_t> cluster{};
    bool empty() const {
        return tunables.empty() && pipelines.empty() && dtypes.empty() && !cluster;
    }
};

// Parses the command-line spellings above; the message names the malformed entry.
Result<TunableOverride> parse_tunable_override(const std::string& text);
Result<PipelineOverride> parse_pipeline_override(const std::string& text);
Result<DTypeOverride> parse_dtype_override(const std::string& text);

Result<Program> apply_overrides(const Program& program, const Overrides& overrides);

} // namespace kiln::ir
