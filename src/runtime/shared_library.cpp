#include "runtime/shared_library.h"

#include <cstdlib>
#include <dlfcn.h>

namespace kiln::runtime {

Result<SharedLibrary> SharedLibrary::open(const std::vector<std::string>& candidates,
                                          const std::string& what) {
    std::string tried;
    for (const auto& c : candidates) {
        if (void* h = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            SharedLibrary lib;
            lib.handle_ = h;
            lib.path_ = c;
            return lib;
        }
        tried += (tried.empty() ? "" : ", ") + c;
    }
    return Diagnostic{{}, what + " not found (tried " + tried + ")"};
}

void* SharedLibrary::symbol(const char* name) const {
    return dlsym(handle_, name);
}

std::vector<std::string> cuda_library_candidates(const std::vector<std::string>& sonames) {
    std::vector<std::string> out = sonames;
    for (const char* var : {"CUDA_HOME", "CUDA_PATH"})
        if (const char* root = std::getenv(var))
            for (const auto& s : sonames)
                out.push_back(std::string(root) + "/lib64/" + s);
    for (const auto& s : sonames)
        out.push_back("/usr/local/cuda/lib64/" + s);
    return out;
}

} // namespace kiln::runtime
