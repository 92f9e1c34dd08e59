#pragma once
// A shared library opened at run time (dlopen), so `kiln` links neither libcuda nor libnvrtc and
// starts on machines that have neither; what is missing becomes a Diagnostic when `--gpu` or
// `--emit=cubin` asks for it.
//
// Guarantees: open() tries each candidate in order and names all of them when none loads;
// symbol() returns nullptr for a missing name. The library stays loaded for the process.
#include "ir/diagnostic.h"

#include <string>
#include <vector>

namespace kiln::runtime {

class SharedLibrary {
public:
    static Result<SharedLibrary> open(const std::vector<std::string>& candidates,
                                      const std::string& what);
    void* symbol(const char* name) const;
    const std::string& path() const { return path_; }

private:
    void* handle_ = nullptr;
    std::string path_;
};

// Candidate paths of a CUDA toolkit library: the bare sonames (the loader's search path), then
// under $CUDA_HOME, $CUDA_PATH and /usr/local/cuda (lib64/).
std::vector<std::string> cuda_library_candidates(const std::vector<std::string>& sonames);

} // namespace kiln::runtime
