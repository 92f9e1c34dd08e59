#pragma once
// The on-disk kernel cache: one directory per key, `<dir>/<program>-<digest>/` holding
// `kernel.cubin` and `spec.json` (the launch spec). Directory: $KILN_CACHE_DIR, else
// $XDG_CACHE_HOME/kiln, else ~/.cache/kiln.
//
// Guarantees: an entry appears whole or not at all (written into a temporary directory, then
// renamed into place; a concurrent writer of the same key loses the rename harmlessly). find()
// never trusts bytes it has not checked: a missing file, a spec that does not parse, a file that
// is not a cubin for sm_90a (ELF magic, EM_CUDA, target) is reported as Corrupt with the reason,
// for the caller to remove and recompile; nothing in the cache can crash kiln.
#include "codegen/launch_spec.h"
#include "ir/diagnostic.h"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kiln::runtime {

struct CacheEntry {
    std::vector<char> cubin;
    codegen::LaunchSpec spec;
};

class KernelCache {
public:
    explicit KernelCache(std::filesystem::path dir) : dir_(std::move(dir)) {}
    static Result<std::filesystem::path> default_dir();

    struct Lookup {
        enum class Status { Hit, Miss, Corrupt };
        Status status = Status::Miss;
        CacheEntry entry;    // Hit only
        std::string problem; // Corrupt only: what is wrong with the entry
    };

    std::filesystem::path entry_path(const std::string& program, const std::string& digest) const;
    Lookup find(const std::string& program, const std::string& digest) const;
    std::optional<Diagnostic> store(const std::string& program, const std::string& digest,
                                    const CacheEntry& entry) const;
    std::optional<Diagnostic> remove(const std::string& program, const std::string& digest) const;

private:
    std::filesystem::path dir_;
};

} // namespace kiln::runtime
