#include "tools/kiln/run_report.h"

#include <fmt/core.h>

namespace kiln::cli {

std::string sizes_text(const std::map<std::string, int64_t>& sizes) {
    std::string out;
    for (const auto& [n, v] : sizes)
        out += (out.empty() ? "" : " ") + n + "=" + std::to_string(v);
    return out;
}

bool report_comparisons(const interp::TensorMap& outputs, const interp::TensorMap& reference,
                        const std::string& reference_name, double tolerance) {
    bool all_pass = true;
    for (const auto& c : interp::compare(outputs, reference)) {
        ir::DType t = reference.at(c.tensor).dtype;
        double tol = tolerance > 0 ? tolerance : interp::tolerance_for(t);
        bool pass = c.nan_count == 0 && c.rel_error < tol;
        all_pass = all_pass && pass;
        fmt::print("{}: rel error {:.3e}, max abs error {:.3e}{} vs float64 reference {} "
                   "(tolerance {:.0e} for {}): {}\n",
                   c.tensor, c.rel_error, c.max_abs_error,
                   c.nan_count ? fmt::format(", {} NaN/unwritten", c.nan_count) : "",
                   reference_name, tol, ir::spelling(t), pass ? "PASS" : "FAIL");
    }
    return all_pass;
}

} // namespace kiln::cli
