#include "interp/externals.h"

#include <algorithm>
#include <cmath>

namespace kiln::interp {
namespace {

// Throws DiagnosticError (via the operand accessors) on bad operands.
using ExternalFn = void (*)(const std::vector<LeafArg>& args, const Loc& loc);

void require_arity(const std::vector<LeafArg>& args, std::size_t n, const std::string& name,
                   const Loc& loc) {
    if (args.size() != n)
        fail_at(loc, "call_external(\"" + name + "\") takes " + std::to_string(n) +
                         " operands, got " + std::to_string(args.size()));
}

// kiln_swiglu(out, gate, up): out = silu(gate) ⊙ up, the SwiGLU epilogue of a dual GEMM.
void swiglu(const std::vector<LeafArg>& args, const Loc& loc) {
    const std::string name = "kiln_swiglu";
    require_arity(args, 3, name, loc);
    const View& out = tensor_operand(args, 0, name);
    const View& gate = tensor_operand(args, 1, name);
    const View& up = tensor_operand(args, 2, name);
    require_same_shape(out, gate, name, loc);
    require_same_shape(out, up, name, loc);
    auto g = read_all(gate);
    const auto u = read_all(up);
    for (std::size_t i = 0; i < g.size(); ++i)
        g[i] = g[i] / (1.0 + std::exp(-g[i])) * u[i];
    write_all(out, g);
}

struct External {
    const char* name;
    ExternalFn fn;
};

constexpr External kExternals[] = {
    {"kiln_swiglu", swiglu},
};

} // namespace

std::optional<Diagnostic> call_external(const std::string& name, const std::vector<LeafArg>& args,
                                        const Loc& loc) {
    for (const auto& e : kExternals) {
        if (name != e.name)
            continue;
        try {
            e.fn(args, loc);
        } catch (const DiagnosticError& err) {
            return err.diag;
        }
        return std::nullopt;
    }
    std::string known;
    for (const auto& n : external_names())
        known += (known.empty() ? "" : ", ") + n;
    return Diagnostic{loc, "call_external: the interpreter has no CPU version of '" + name +
                               "' (known: " + known + "); add one in src/interp/externals.cpp"};
}

std::vector<std::string> external_names() {
    std::vector<std::string> names;
    for (const auto& e : kExternals)
        names.emplace_back(e.name);
    std::sort(names.begin(), names.end());
    return names;
}

} // namespace kiln::interp
