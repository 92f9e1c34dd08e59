#pragma once
// The CUDA and launch spec `kiln compile --emit=cuda` makes of an example, for the runtime tests.
#include "../codegen/lowered_example.h"

#include <gtest/gtest.h>

#include <string>

namespace kiln::runtime::testing {

inline codegen::Generated generated_example(const std::string& example,
                                            const passes::Sizes& sizes = {}, int64_t cluster = 1) {
    const auto lowered = codegen::testing::lower(example, sizes, cluster);
    auto generated = codegen::emit_cuda(lowered.program, lowered.options);
    EXPECT_TRUE(generated.ok()) << generated.error_text();
    return generated.ok() ? *generated : codegen::Generated{};
}

} // namespace kiln::runtime::testing
