#include "runtime/nvrtc_compiler.h"

#include "runtime/device_headers.h"
#include "runtime/shared_library.h"

#include <nvrtc.h>

#include <cstdlib>
#include <filesystem>

namespace kiln::runtime {
namespace {

namespace fs = std::filesystem;

// The NVRTC entry points kiln uses, resolved from the library loaded at run time.
struct Nvrtc {
    decltype(&nvrtcVersion) version = nullptr;
    decltype(&nvrtcGetErrorString) error_string = nullptr;
    decltype(&nvrtcCreateProgram) create = nullptr;
    decltype(&nvrtcCompileProgram) compile = nullptr;
    decltype(&nvrtcGetProgramLogSize) log_size = nullptr;
    decltype(&nvrtcGetProgramLog) log = nullptr;
    decltype(&nvrtcGetCUBINSize) cubin_size = nullptr;
    decltype(&nvrtcGetCUBIN) cubin = nullptr;
    decltype(&nvrtcDestroyProgram) destroy = nullptr;
};

template <class F> bool resolve(const SharedLibrary& lib, F& f, const char* name) {
    f = reinterpret_cast<F>(lib.symbol(name));
    return f != nullptr;
}

Result<Nvrtc> load_nvrtc() {
    auto lib = SharedLibrary::open(
        cuda_library_candidates({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}),
        "NVRTC (libnvrtc.so, part of the CUDA toolkit)");
    if (!lib)
        return lib.errors();
    Nvrtc n;
    if (!resolve(*lib, n.version, "nvrtcVersion") ||
        !resolve(*lib, n.error_string, "nvrtcGetErrorString") ||
        !resolve(*lib, n.create, "nvrtcCreateProgram") ||
        !resolve(*lib, n.compile, "nvrtcCompileProgram") ||
        !resolve(*lib, n.log_size, "nvrtcGetProgramLogSize") ||
        !resolve(*lib, n.log, "nvrtcGetProgramLog") ||
        !resolve(*lib, n.cubin_size, "nvrtcGetCUBINSize") ||
        !resolve(*lib, n.cubin, "nvrtcGetCUBIN") ||
        !resolve(*lib, n.destroy, "nvrtcDestroyProgram"))
        return Diagnostic{{}, lib->path() + " lacks an NVRTC entry point (needs CUDA 12.8+)"};
    return n;
}

const Result<Nvrtc>& nvrtc() {
    static const Result<Nvrtc> n = load_nvrtc();
    return n;
}

std::vector<std::string> include_candidates() {
    std::vector<std::string> out;
    if (const char* dir = std::getenv("KILN_CUDA_INCLUDE"))
        out.emplace_back(dir);
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(var))
            out.push_back(std::string(root) + "/include");
#ifdef KILN_CUDA_INCLUDE_DIR
    out.emplace_back(KILN_CUDA_INCLUDE_DIR);
#endif
    out.emplace_back("/usr/local/cuda/include");
    return out;
}

std::string program_log(const Nvrtc& n, nvrtcProgram p) {
    size_t size = 0;
    n.log_size(p, &size);
    std::string log(size, '\0');
    if (size)
        n.log(p, log.data());
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log;
}

// The compiled program's cubin, or NVRTC's log as the Diagnostic.
Result<std::vector<char>> compile_program(const Nvrtc& n, nvrtcProgram p, const std::string& name,
                                          const std::vector<std::string>& includes) {
    std::vector<std::string> options = {std::string("-arch=") + kTargetArch, "-std=c++20"};
    for (const auto& dir : includes)
        options.push_back("-I" + dir);
    std::vector<const char*> argv;
    for (const auto& o : options)
        argv.push_back(o.c_str());
    nvrtcResult r = n.compile(p, static_cast<int>(argv.size()), argv.data());
    if (r != NVRTC_SUCCESS)
        return Diagnostic{{},
                          "NVRTC could not compile " + name + " (" + n.error_string(r) + "):\n" +
                              program_log(n, p)};
    size_t size = 0;
    if (n.cubin_size(p, &size) != NVRTC_SUCCESS || size == 0)
        return Diagnostic{{}, "NVRTC produced no cubin for " + name};
    std::vector<char> cubin(size);
    n.cubin(p, cubin.data());
    return cubin;
}

} // namespace

Result<std::string> nvrtc_version() {
    const auto& n = nvrtc();
    if (!n)
        return n.errors();
    int major = 0, minor = 0;
    n->version(&major, &minor);
    return std::to_string(major) + "." + std::to_string(minor);
}

Result<std::vector<std::string>> cuda_include_dirs() {
    std::string tried;
    for (const auto& dir : include_candidates()) {
        std::error_code ec;
        if (!fs::exists(fs::path(dir) / "cuda_bf16.h", ec)) {
            tried += (tried.empty() ? "" : ", ") + dir;
            continue;
        }
        if (fs::exists(fs::path(dir) / "cccl" / "cuda" / "ptx", ec))
            return std::vector<std::string>{dir + "/cccl", dir};
        return std::vector<std::string>{dir};
    }
    return Diagnostic{{},
                      "no CUDA toolkit headers (cuda_bf16.h) in " + tried +
                          "; set KILN_CUDA_INCLUDE or CUDA_HOME"};
}

Result<std::vector<char>> compile_to_cubin(const std::string& source, const std::string& name) {
    const auto& n = nvrtc();
    if (!n)
        return n.errors();
    auto includes = cuda_include_dirs();
    if (!includes)
        return includes.errors();
    std::vector<const char*> header_texts, header_names;
    std::vector<std::string> storage; // NVRTC wants NUL-terminated texts
    storage.reserve(device_headers().size() * 2);
    for (const auto& h : device_headers()) {
        header_texts.push_back(storage.emplace_back(h.text).c_str());
        header_names.push_back(storage.emplace_back(h.name).c_str());
    }
    nvrtcProgram p = nullptr;
    nvrtcResult r =
        n->create(&p, source.c_str(), name.c_str(), static_cast<int>(header_texts.size()),
                  header_texts.data(), header_names.data());
    if (r != NVRTC_SUCCESS)
        return Diagnostic{{},
                          std::string("NVRTC could not create a program: ") + n->error_string(r)};
    auto cubin = compile_program(*n, p, name, *includes);
    n->destroy(&p);
    return cubin;
}

} // namespace kiln::runtime
