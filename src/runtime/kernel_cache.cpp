#include "runtime/kernel_cache.h"

#include "runtime/cubin.h"
#include "runtime/nvrtc_compiler.h"

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <unistd.h>

namespace kiln::runtime {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCubinFile = "kernel.cubin";
constexpr const char* kSpecFile = "spec.json";

std::optional<std::vector<char>> read_file(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    if (!in)
        return std::nullopt;
    return std::vector<char>(std::istreambuf_iterator<char>(in), {});
}

std::optional<Diagnostic> write_file(const fs::path& p, const char* data, std::size_t n) {
    std::ofstream out(p, std::ios::binary);
    out.write(data, static_cast<std::streamsize>(n));
    out.close();
    if (!out)
        return Diagnostic{{}, "kernel cache: cannot write " + p.string()};
    return std::nullopt;
}

// Why the cubin cannot be this entry's, or "" when it is a cubin for the target.
std::string cubin_problem(const std::vector<char>& cubin) {
    auto info = inspect_cubin(cubin);
    if (!info)
        return info.errors().front().message;
    if (!info->arch.empty() && info->arch != kTargetArch)
        return "a cubin for " + info->arch + ", not " + kTargetArch;
    return "";
}

// A directory name no other writer (thread or process) uses.
fs::path temporary_dir(const fs::path& dir, const std::string& digest) {
    static std::atomic<int> counter{0};
    return dir / (".tmp-" + digest.substr(0, 16) + "-" + std::to_string(getpid()) + "-" +
                  std::to_string(counter++));
}

} // namespace

Result<fs::path> KernelCache::default_dir() {
    if (const char* dir = std::getenv("KILN_CACHE_DIR"); dir && *dir)
        return fs::path(dir);
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return fs::path(xdg) / "kiln";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "kiln";
    return Diagnostic{{}, "kernel cache: neither KILN_CACHE_DIR nor HOME is set"};
}

fs::path KernelCache::entry_path(const std::string& program, const std::string& digest) const {
    return dir_ / (program + "-" + digest);
}

KernelCache::Lookup KernelCache::find(const std::string& program, const std::string& digest) const {
    const fs::path entry = entry_path(program, digest);
    std::error_code ec;
    if (!fs::exists(entry, ec))
        return {};
    auto cubin = read_file(entry / kCubinFile);
    auto spec_text = read_file(entry / kSpecFile);
    if (!cubin || !spec_text)
        return {Lookup::Status::Corrupt, {}, "a file of the entry is missing or unreadable"};
    if (std::string why = cubin_problem(*cubin); !why.empty())
        return {Lookup::Status::Corrupt, {}, kCubinFile + std::string(" is ") + why};
    auto spec = codegen::launch_spec_from_json(std::string(spec_text->begin(), spec_text->end()));
    if (!spec)
        return {Lookup::Status::Corrupt,
                {},
                kSpecFile + std::string(": ") + spec.errors().front().message};
    return {Lookup::Status::Hit, {std::move(*cubin), std::move(*spec)}, ""};
}

std::optional<Diagnostic> KernelCache::store(const std::string& program, const std::string& digest,
                                             const CacheEntry& entry) const {
    std::error_code ec;
    fs::create_directories(dir_, ec);
    const fs::path tmp = temporary_dir(dir_, digest);
    if (!fs::create_directory(tmp, ec))
        return Diagnostic{
            {}, "kernel cache: cannot create " + tmp.string() + " (" + ec.message() + ")"};
    const std::string spec = codegen::to_json(entry.spec);
    auto failed = write_file(tmp / kCubinFile, entry.cubin.data(), entry.cubin.size());
    if (!failed)
        failed = write_file(tmp / kSpecFile, spec.data(), spec.size());
    if (!failed) {
        fs::rename(tmp, entry_path(program, digest), ec);
        if (!ec)
            return std::nullopt;
        // Another writer's rename won: its entry holds the same bytes.
        if (fs::exists(entry_path(program, digest)))
            ec.clear();
        else
            failed = Diagnostic{{},
                                "kernel cache: cannot rename " + tmp.string() + " into place (" +
                                    ec.message() + ")"};
    }
    fs::remove_all(tmp, ec);
    return failed;
}

std::optional<Diagnostic> KernelCache::remove(const std::string& program,
                                              const std::string& digest) const {
    std::error_code ec;
    fs::remove_all(entry_path(program, digest), ec);
    if (ec)
        return Diagnostic{{},
                          "kernel cache: cannot remove " + entry_path(program, digest).string() +
                              " (" + ec.message() + ")"};
    return std::nullopt;
}

} // namespace kiln::runtime
