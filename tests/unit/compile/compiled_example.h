#pragma once
// An example compiled through every pass, with seeded inputs and its float64 reference outputs:
// what the end-to-end and mutation tests simulate.
#include "codegen/kernel_plan.h"
#include "interp/interpreter.h"
#include "interp/reference.h"
#include "ir/parser.h"
#include "passes/instantiate.h"
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace kiln::testing_support {

struct CompiledExample {
    ir::Program program;
    event::EventProgram lowered;
    interp::TensorMap inputs;
    interp::TensorMap expected; // the reference's outputs (write / rw / reduce parameters)
};

inline std::optional<CompiledExample>
compile_example(const std::string& name, const passes::Sizes& sizes, uint64_t input_seed = 7) {
    auto program = ir::parse_file(std::string(KILN_SOURCE_DIR) + "/examples/" + name + ".kiln");
    EXPECT_TRUE(program.ok()) << program.error_text();
    if (!program)
        return std::nullopt;
    passes::CompileOptions options;
    options.sizes = sizes;
    // as `kiln run --lowered` compiles: what the kernel keeps in registers takes no shared memory
    auto compiled = passes::compile(*program, options, codegen::codegen_pass_context());
    EXPECT_TRUE(compiled.ok()) << compiled.error_text();
    auto tree = passes::instantiate(*program, sizes);
    EXPECT_TRUE(tree.ok()) << tree.error_text();
    if (!compiled || !tree)
        return std::nullopt;
    auto inputs = interp::make_inputs(*program, tree->sizes, input_seed);
    EXPECT_TRUE(inputs.ok()) << inputs.error_text();
    if (!inputs)
        return std::nullopt;
    auto reference = interp::run_reference(*program, tree->sizes, *inputs);
    EXPECT_TRUE(reference.ok()) << reference.error_text();
    if (!reference)
        return std::nullopt;
    CompiledExample out{*program, std::move(compiled->program), *inputs, {}};
    for (const auto& arg : tree->root.tensors)
        if (arg.privilege != ir::Privilege::Read)
            out.expected[arg.param] = reference->at(arg.param);
    return out;
}

} // namespace kiln::testing_support
