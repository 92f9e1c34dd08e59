#include "runtime/jit.h"

#include "runtime/cache_key.h"
#include "runtime/cubin.h"
#include "runtime/nvrtc_compiler.h"

#include <chrono>

namespace kiln::runtime {
namespace {

// `out` carries the key, the entry's path and the notes so far.
Result<CompiledKernels> compile_and_store(const codegen::Generated& g, const KernelCache& cache,
                                          CompiledKernels out) {
    const auto start = std::chrono::steady_clock::now();
    auto cubin = compile_to_cubin(g.source, g.spec.program + ".cu");
    if (!cubin)
        return cubin.errors();
    out.compile_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out.entry = {std::move(*cubin), g.spec};
    out.cache_hit = false;
    auto failed = cache.store(g.spec.program, out.digest, out.entry);
    out.stored = !failed;
    if (failed)
        out.notes.push_back(failed->message + " (continuing without caching)");
    return out;
}

} // namespace

Result<CompiledKernels> compile_cached(const codegen::Generated& g, const std::string& gpu,
                                       const KernelCache& cache) {
    CompiledKernels out;
    out.digest = cache_digest(key_parts(g.source, codegen::to_json(g.spec), gpu));
    out.path = cache.entry_path(g.spec.program, out.digest);
    auto found = cache.find(g.spec.program, out.digest);
    if (found.status == KernelCache::Lookup::Status::Hit && found.entry.spec != g.spec) {
        found.status = KernelCache::Lookup::Status::Corrupt;
        found.problem = "its launch spec differs from the generated one";
    }
    switch (found.status) {
    case KernelCache::Lookup::Status::Hit:
        out.entry = std::move(found.entry);
        out.cache_hit = true;
        return out;
    case KernelCache::Lookup::Status::Corrupt:
        out.notes.push_back("kernel cache: entry " + out.path.string() + " is corrupt (" +
                            found.problem + "): removed, recompiling");
        if (auto e = cache.remove(g.spec.program, out.digest))
            out.notes.push_back(e->message);
        break;
    case KernelCache::Lookup::Status::Miss:
        break;
    }
    return compile_and_store(g, cache, std::move(out));
}

Result<JitKernels> jit(Driver& d, const codegen::Generated& g, const KernelCache& cache) {
    const std::string gpu = d.device.describe();
    auto compiled = compile_cached(g, gpu, cache);
    if (!compiled)
        return compiled.errors();
    auto module = KernelModule::load(d, compiled->entry.cubin, g.spec);
    if (module)
        return JitKernels{std::move(*compiled), std::move(*module)};
    if (!compiled->cache_hit)
        return module.errors();
    // The entry passed every check the host can make, but the driver refused it: treat it as
    // corrupt, once.
    compiled->notes.push_back("kernel cache: the driver refused entry " + compiled->path.string() +
                              " (" + module.errors().front().message + "): removed, recompiling");
    cache.remove(g.spec.program, compiled->digest);
    auto again = compile_and_store(g, cache, std::move(*compiled));
    if (!again)
        return again.errors();
    auto reloaded = KernelModule::load(d, again->entry.cubin, g.spec);
    if (!reloaded)
        return reloaded.errors();
    return JitKernels{std::move(*again), std::move(*reloaded)};
}

} // namespace kiln::runtime
