// NVRTC compiles the generated GEMM family (the device headers from inside the binary) into
// cubins whose ELF header says EM_CUDA, SM 90, and whose target is sm_90a. No GPU needed.
#include "generated_example.h"
#include "runtime/cubin.h"
#include "runtime/device_headers.h"
#include "runtime/nvrtc_compiler.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kiln::runtime {
namespace {

TEST(NvrtcCompiler, GemmFamilyCompilesToSm90aCubins) {
    for (const char* example : {"gemm", "dual_gemm", "batched_gemm"}) {
        auto generated = testing::generated_example(example);
        auto cubin = compile_to_cubin(generated.source, std::string(example) + ".cu");
        ASSERT_TRUE(cubin.ok()) << example << ": " << cubin.error_text();
        auto info = inspect_cubin(*cubin);
        ASSERT_TRUE(info.ok()) << info.error_text();
        EXPECT_EQ(info->sm, 90) << example;
        EXPECT_EQ(info->arch, "sm_90a") << example;
    }
}

TEST(NvrtcCompiler, ClusterGemmCompilesToAnSm90aCubin) {
    auto generated = testing::generated_example("gemm", {{"M", 328}, {"N", 296}, {"K", 104}}, 2);
    ASSERT_EQ(generated.spec.kernels.back().cluster, 2);
    auto cubin = compile_to_cubin(generated.source, "gemm_cluster.cu");
    ASSERT_TRUE(cubin.ok()) << cubin.error_text();
    auto info = inspect_cubin(*cubin);
    ASSERT_TRUE(info.ok()) << info.error_text();
    EXPECT_EQ(info->arch, "sm_90a");
}

TEST(NvrtcCompiler, CompileErrorsCarryNvrtcsLog) {
    auto cubin = compile_to_cubin("extern \"C\" __global__ void k() { undeclared(); }", "bad.cu");
    ASSERT_FALSE(cubin.ok());
    EXPECT_NE(cubin.error_text().find("NVRTC could not compile bad.cu"), std::string::npos);
    EXPECT_NE(cubin.error_text().find("undeclared"), std::string::npos) << cubin.error_text();
}

TEST(NvrtcCompiler, EmbedsEveryDeviceHeaderAsItIsOnDisk) {
    const std::filesystem::path dir = std::filesystem::path(KILN_SOURCE_DIR) / "device";
    std::size_t on_disk = 0;
    for (const auto& f : std::filesystem::directory_iterator(dir / "kiln"))
        on_disk += f.path().extension() == ".cuh" || f.path().extension() == ".inc";
    EXPECT_EQ(device_headers().size(), on_disk);
    for (const auto& h : device_headers()) {
        std::ifstream in(dir / std::string(h.name));
        std::stringstream text;
        text << in.rdbuf();
        EXPECT_EQ(text.str(), h.text) << h.name;
    }
}

TEST(NvrtcCompiler, ReportsItsVersionAndTheToolkitHeaders) {
    auto version = nvrtc_version();
    ASSERT_TRUE(version.ok()) << version.error_text();
    EXPECT_GE(std::stoi(*version), 12);
    auto includes = cuda_include_dirs();
    ASSERT_TRUE(includes.ok()) << includes.error_text();
    EXPECT_FALSE(includes->empty());
}

} // namespace
} // namespace kiln::runtime
