#pragma once
// Programs lowered by a prefix of the compiler pipeline, for the tests of its first passes.
#include "passes/pipeline.h"
#include "test_util.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace kiln::passes::testing {

// `program` lowered by the pipeline (passes/pipeline.h) through pass `last` ("depend",
// "vectorize", ...); the pipeline verifies every pass's output, so a result is verified IR.
inline Result<event::EventProgram> lower_through(const ir::Program& program,
                                                 const std::string& last, const Sizes& sizes = {}) {
    CompileOptions options;
    options.sizes = sizes;
    options.stop_after = last;
    auto compiled = compile(program, options);
    if (!compiled)
        return compiled.errors();
    return std::move(compiled->program);
}

struct LoweredExample {
    std::filesystem::path file;
    event::EventProgram program;
};

// Every examples/*.kiln (sorted, found when the test runs) lowered through pass `last`; an
// example that does not parse or lower fails the test and is left out.
inline std::vector<LoweredExample> lowered_examples(const std::string& last) {
    std::vector<std::filesystem::path> files;
    for (const auto& f : std::filesystem::directory_iterator(source_path("examples")))
        if (f.path().extension() == ".kiln")
            files.push_back(f.path());
    std::sort(files.begin(), files.end());
    std::vector<LoweredExample> out;
    for (const auto& f : files) {
        auto e = lower_through(parse(read_text(f), f.filename()), last);
        EXPECT_TRUE(e.ok()) << f << ": " << e.error_text();
        if (e)
            out.push_back({f, std::move(e).value()});
    }
    return out;
}

} // namespace kiln::passes::testing
