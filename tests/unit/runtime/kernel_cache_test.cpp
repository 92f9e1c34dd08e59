// The kernel cache: a stored entry comes back byte for byte; entries appear whole; corrupt
// entries (truncated cubin, a file that is not a cubin, a broken spec, a missing file) are
// reported with the reason, and compile_cached removes and recompiles them. NVRTC, no GPU.
#include "generated_example.h"
#include "runtime/jit.h"
#include "runtime/kernel_cache.h"
#include "runtime/nvrtc_compiler.h"

#include <filesystem>
#include <fstream>

namespace kiln::runtime {
namespace {

namespace fs = std::filesystem;
using Status = KernelCache::Lookup::Status;

class KernelCacheTest : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::path(::testing::TempDir()) /
               ("kiln_cache_" +
                std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // A real cubin with the GEMM's spec (the cache checks the bytes, not that they match).
    static const CacheEntry& entry() {
        static const CacheEntry e = [] {
            auto cubin =
                compile_to_cubin("extern \"C\" __global__ void gemm(int* p) { *p = 1; }", "k.cu");
            EXPECT_TRUE(cubin.ok()) << cubin.error_text();
            return CacheEntry{cubin.ok() ? *cubin : std::vector<char>{},
                              testing::generated_example("gemm").spec};
        }();
        return e;
    }

    void overwrite(const std::string& file, const std::string& bytes) {
        std::ofstream(cache().entry_path("gemm", kDigest) / file, std::ios::binary) << bytes;
    }
    KernelCache cache() const { return KernelCache(dir_); }

    static constexpr const char* kDigest = "0123abcd";
    fs::path dir_;
};

TEST_F(KernelCacheTest, StoredEntryComesBackByteForByte) {
    EXPECT_EQ(cache().find("gemm", kDigest).status, Status::Miss);
    ASSERT_FALSE(cache().store("gemm", kDigest, entry()));
    auto found = cache().find("gemm", kDigest);
    ASSERT_EQ(found.status, Status::Hit) << found.problem;
    EXPECT_EQ(found.entry.cubin, entry().cubin);
    EXPECT_EQ(found.entry.spec, entry().spec);
    // Entries appear by rename: no temporary directory is left behind.
    for (const auto& e : fs::directory_iterator(dir_))
        EXPECT_EQ(e.path().filename().string().rfind(".tmp", 0), std::string::npos) << e.path();
    EXPECT_EQ(cache().find("gemm", "other").status, Status::Miss);
}

TEST_F(KernelCacheTest, CorruptEntriesAreReportedWithTheReason) {
    const std::string cubin(entry().cubin.begin(), entry().cubin.end());
    const std::vector<std::pair<std::string, std::string>> damage = {
        {"kernel.cubin", cubin.substr(0, cubin.size() / 2)},
        {"kernel.cubin", "this is not a cubin"},
        {"spec.json", "{\"program\": \"gemm\""},
    };
    const std::vector<std::string> reasons = {"kernel.cubin is not a cubin: section",
                                              "kernel.cubin is not a cubin: no ELF magic",
                                              "spec.json: launch spec: malformed JSON"};
    for (std::size_t i = 0; i < damage.size(); ++i) {
        ASSERT_FALSE(cache().store("gemm", kDigest, entry()));
        overwrite(damage[i].first, damage[i].second);
        auto found = cache().find("gemm", kDigest);
        EXPECT_EQ(found.status, Status::Corrupt);
        EXPECT_NE(found.problem.find(reasons[i]), std::string::npos) << found.problem;
        ASSERT_FALSE(cache().remove("gemm", kDigest));
    }
    ASSERT_FALSE(cache().store("gemm", kDigest, entry()));
    fs::remove(cache().entry_path("gemm", kDigest) / "spec.json");
    EXPECT_EQ(cache().find("gemm", kDigest).status, Status::Corrupt);
}

TEST_F(KernelCacheTest, CompileCachedMissesThenHitsAndRecompilesACorruptEntry) {
    auto generated = testing::generated_example("gemm");
    auto first = compile_cached(generated, "test GPU", cache());
    ASSERT_TRUE(first.ok()) << first.error_text();
    EXPECT_FALSE(first->cache_hit);
    EXPECT_TRUE(fs::exists(first->path / "kernel.cubin"));
    auto second = compile_cached(generated, "test GPU", cache());
    ASSERT_TRUE(second.ok()) << second.error_text();
    EXPECT_TRUE(second->cache_hit);
    EXPECT_EQ(second->entry.cubin, first->entry.cubin);
    EXPECT_EQ(second->path, first->path);
    // Another GPU is another key.
    auto elsewhere = compile_cached(generated, "other GPU", cache());
    ASSERT_TRUE(elsewhere.ok());
    EXPECT_NE(elsewhere->path, first->path);

    std::ofstream(first->path / "kernel.cubin", std::ios::binary) << "garbage";
    auto third = compile_cached(generated, "test GPU", cache());
    ASSERT_TRUE(third.ok()) << third.error_text();
    EXPECT_FALSE(third->cache_hit);
    ASSERT_EQ(third->notes.size(), 1u);
    EXPECT_NE(third->notes[0].find("is corrupt (kernel.cubin is not a cubin: no ELF magic): "
                                   "removed, recompiling"),
              std::string::npos)
        << third->notes[0];
    EXPECT_EQ(third->entry.cubin, first->entry.cubin);
    EXPECT_TRUE(compile_cached(generated, "test GPU", cache())->cache_hit);
}

TEST_F(KernelCacheTest, DirectoryFromTheEnvironment) {
    setenv("KILN_CACHE_DIR", dir_.c_str(), 1);
    EXPECT_EQ(*KernelCache::default_dir(), dir_);
    unsetenv("KILN_CACHE_DIR");
    setenv("HOME", "/home/someone", 1);
    unsetenv("XDG_CACHE_HOME");
    EXPECT_EQ(*KernelCache::default_dir(), fs::path("/home/someone/.cache/kiln"));
}

} // namespace
} // namespace kiln::runtime
