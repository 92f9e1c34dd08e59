#pragma once
// The CUDA and launch spec `kiln compile --emit=cuda` makes of an example, for the runtime tests.
#include "codegen/cuda_emitter.h"
#include "ir/parser.h"
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <string>

namespace kiln::runtime::testing {

inline codegen::Generated generated_example(const std::string& example,
                                            const passes::Sizes& sizes = {}) {
    auto program = ir::parse_file(std::string(KILN_SOURCE_DIR) + "/examples/" + example + ".kiln");
    EXPECT_TRUE(program.ok()) << program.error_text();
    passes::CompileOptions options;
    options.sizes = sizes;
    auto compiled = passes::compile(*program, options);
    EXPECT_TRUE(compiled.ok()) << compiled.error_text();
    codegen::EmitOptions emit;
    for (const auto& s : program->sizes)
        emit.size_order.push_back(s.name);
    auto generated = codegen::emit_cuda(compiled->program, emit);
    EXPECT_TRUE(generated.ok()) << generated.error_text();
    return generated.ok() ? *generated : codegen::Generated{};
}

} // namespace kiln::runtime::testing
