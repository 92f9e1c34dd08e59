// The cache key covers every component that decides the cubin, and only hashes (SHA-256).
#include "runtime/cache_key.h"
#include "runtime/sha256.h"

#include <gtest/gtest.h>

namespace kiln::runtime {
namespace {

TEST(Sha256, MatchesTheStandardVectors) {
    EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(sha256_hex("abc"),
              "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(sha256_hex(std::string(1000000, 'a')),
              "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(CacheKey, ChangesWithEachComponent) {
    const CacheKeyParts base{"source", "{spec}", "0.1.0+abc", "13.0", "NVIDIA H100 (sm_90)"};
    const std::string digest = cache_digest(base);
    EXPECT_EQ(digest.size(), 64u);
    EXPECT_EQ(cache_digest(base), digest);
    auto changed = [&](auto edit) {
        CacheKeyParts p = base;
        edit(p);
        return cache_digest(p);
    };
    EXPECT_NE(changed([](CacheKeyParts& p) { p.source += " "; }), digest);
    EXPECT_NE(changed([](CacheKeyParts& p) { p.spec_json = "{spec2}"; }), digest);
    EXPECT_NE(changed([](CacheKeyParts& p) { p.kiln_version = "0.1.0+abd"; }), digest);
    EXPECT_NE(changed([](CacheKeyParts& p) { p.nvrtc_version = "13.1"; }), digest);
    EXPECT_NE(changed([](CacheKeyParts& p) { p.gpu = "NVIDIA H200 (sm_90)"; }), digest);
    // Parts are length-prefixed: moving a character across a boundary changes the key.
    EXPECT_NE(changed([](CacheKeyParts& p) {
                  p.source = "sourc";
                  p.spec_json = "e{spec}";
              }),
              digest);
}

TEST(CacheKey, PartsOfTheRunningKiln) {
    auto p = key_parts("s", "j", "gpu");
    EXPECT_NE(p.kiln_version.find('+'), std::string::npos) << p.kiln_version;
    EXPECT_NE(p.nvrtc_version, "");
}

} // namespace
} // namespace kiln::runtime
