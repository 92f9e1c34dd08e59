// inspect_cubin reads what a cubin says about itself and refuses anything else with a reason.
#include "runtime/cubin.h"
#include "runtime/nvrtc_compiler.h"

#include <gtest/gtest.h>

namespace kiln::runtime {
namespace {

std::vector<char> small_cubin() {
    auto cubin = compile_to_cubin("extern \"C\" __global__ void k(int* p) { *p = 1; }", "k.cu");
    EXPECT_TRUE(cubin.ok()) << cubin.error_text();
    return cubin.ok() ? *cubin : std::vector<char>{};
}

std::string problem(const std::vector<char>& bytes) {
    auto info = inspect_cubin(bytes);
    return info.ok() ? "" : info.error_text();
}

TEST(Cubin, ReadsTheTargetOfARealCubin) {
    auto info = inspect_cubin(small_cubin());
    ASSERT_TRUE(info.ok()) << info.error_text();
    EXPECT_EQ(info->sm, 90);
    EXPECT_EQ(info->arch, "sm_90a");
}

TEST(Cubin, RefusesWhatIsNotACubin) {
    const std::string text = "{\"not\": \"a cubin\"}";
    EXPECT_NE(problem({text.begin(), text.end()}).find("not a cubin: no ELF magic"),
              std::string::npos);
    EXPECT_NE(problem({}).find("no ELF magic"), std::string::npos);
    auto foreign = small_cubin();
    foreign[18] = 62; // EM_X86_64
    EXPECT_NE(problem(foreign).find("ELF machine 62, not EM_CUDA (190)"), std::string::npos);
}

TEST(Cubin, RefusesATruncatedCubin) {
    auto cubin = small_cubin();
    for (std::size_t keep : {std::size_t(100), cubin.size() / 2, cubin.size() - 1}) {
        std::vector<char> cut(cubin.begin(), cubin.begin() + static_cast<long>(keep));
        EXPECT_NE(problem(cut).find("truncated"), std::string::npos) << keep << " bytes";
    }
}

} // namespace
} // namespace kiln::runtime
