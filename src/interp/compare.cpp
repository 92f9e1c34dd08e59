#include "interp/compare.h"

#include <cmath>
#include <cstdio>

namespace kiln::interp {

std::vector<Comparison> compare(const TensorMap& out, const TensorMap& ref) {
    std::vector<Comparison> result;
    for (const auto& [name, r] : ref) {
        Comparison c;
        c.tensor = name;
        c.elements = r.size();
        auto it = out.find(name);
        if (it == out.end() || it->second.shape != r.shape) {
            c.nan_count = c.elements;
            result.push_back(c);
            continue;
        }
        const HostTensor& o = it->second;
        double diff2 = 0, ref2 = 0;
        for (int64_t i = 0; i < r.size(); ++i) {
            if (std::isnan(o.data[i]) || std::isnan(r.data[i])) {
                ++c.nan_count;
                continue;
            }
            const double d = o.data[i] - r.data[i];
            diff2 += d * d;
            ref2 += r.data[i] * r.data[i];
            c.max_abs_error = std::max(c.max_abs_error, std::fabs(d));
        }
        c.rel_error = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
        result.push_back(c);
    }
    return result;
}

double tolerance_for(ir::DType t) {
    switch (t) {
    case ir::DType::BF16:
        return 1e-2;
    case ir::DType::F16:
        return 1e-3;
    case ir::DType::F8E4M3:
    case ir::DType::F8E5M2:
        return 1e-1;
    case ir::DType::F32:
    case ir::DType::I32:
        return 1e-5;
    }
    return 0;
}

int64_t exact_mismatches(const HostTensor& out, const HostTensor& ref) {
    if (out.shape != ref.shape)
        return ref.size();
    int64_t n = 0;
    for (int64_t i = 0; i < ref.size(); ++i)
        n += !(out.data[i] == round_to(out.dtype, ref.data[i]));
    return n;
}

std::string describe(const std::vector<Comparison>& cs) {
    std::string s;
    for (const auto& c : cs) {
        char line[256];
        std::snprintf(line, sizeof line, "%s: rel %.3e, max abs %.3e, %lld NaN of %lld\n",
                      c.tensor.c_str(), c.rel_error, c.max_abs_error,
                      static_cast<long long>(c.nan_count), static_cast<long long>(c.elements));
        s += line;
    }
    return s;
}

} // namespace kiln::interp
