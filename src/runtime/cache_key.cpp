#include "runtime/cache_key.h"

#include "runtime/device_headers.h"
#include "runtime/nvrtc_compiler.h"
#include "runtime/sha256.h"

namespace kiln::runtime {
namespace {

// Length-prefixed, so no two different part lists concatenate to the same bytes.
void append(std::string& out, std::string_view part) {
    out += std::to_string(part.size());
    out += ':';
    out += part;
}

} // namespace

std::string kiln_version() {
    return std::string(KILN_VERSION) + "+" + KILN_GIT_HASH;
}

CacheKeyParts key_parts(std::string source, std::string spec_json, std::string gpu) {
    auto nvrtc = nvrtc_version();
    return {std::move(source), std::move(spec_json), kiln_version(), nvrtc ? *nvrtc : "unavailable",
            std::move(gpu)};
}

std::string cache_digest(const CacheKeyParts& p) {
    std::string all;
    for (std::string_view part :
         {std::string_view(p.source), std::string_view(p.spec_json),
          std::string_view(p.kiln_version), std::string_view(p.nvrtc_version),
          std::string_view(p.gpu), std::string_view(kTargetArch)})
        append(all, part);
    for (const auto& h : device_headers()) {
        append(all, h.name);
        append(all, h.text);
    }
    return sha256_hex(all);
}

} // namespace kiln::runtime
