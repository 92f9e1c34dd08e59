#pragma once
// An example lowered through every pass, with the emit options `kiln compile --emit=cuda` would
// use (the launcher's size order from the program's `sizes` line): for the code generator's and
// the runtime's tests. `cluster` > 1 maps the block instance with `cluster = N` first (as
// `kiln compile --cluster N`).
#include "codegen/cuda_emitter.h"
#include "codegen/kernel_plan.h"
#include "ir/parser.h"
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <string>

namespace kiln::codegen::testing {

struct Lowered {
    event::EventProgram program;
    EmitOptions options;
};

inline Lowered lower(const std::string& example, const passes::Sizes& sizes = {},
                     int64_t cluster = 1) {
    auto program = ir::parse_file(std::string(KILN_SOURCE_DIR) + "/examples/" + example + ".kiln");
    EXPECT_TRUE(program.ok()) << program.error_text();
    if (!program.ok())
        return {};
    const std::string why = mapping::set_cluster(program->mapping, cluster);
    EXPECT_EQ(why, "");
    if (!why.empty())
        return {};
    passes::CompileOptions options;
    options.sizes = sizes;
    auto compiled = passes::compile(*program, options, codegen_pass_context());
    EXPECT_TRUE(compiled.ok()) << compiled.error_text();
    if (!compiled.ok())
        return {};
    Lowered out{compiled->program, {}};
    for (const auto& s : program->sizes)
        out.options.size_order.push_back(s.name);
    return out;
}

// The generated CUDA source of a lowered example (empty, with a test failure, when it fails).
inline std::string emit(const Lowered& l) {
    auto cuda = emit_cuda(l.program, l.options);
    EXPECT_TRUE(cuda.ok()) << cuda.error_text();
    return cuda.ok() ? cuda->source : "";
}

} // namespace kiln::codegen::testing

#define EXPECT_HAS(text, line)                                                                     \
    EXPECT_NE((text).find(line), std::string::npos) << "missing: " << (line)
