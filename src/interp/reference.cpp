#include "interp/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>
#include <vector>

namespace kiln::interp {
namespace {

// The reference's arguments: positional tensors and `key = value` attributes.
struct RefArgs {
    const ir::Reference& ref;
    const TensorMap& inputs;
    std::vector<std::string> tensors;
    std::vector<std::pair<std::string, double>> attrs;

    const HostTensor& tensor(std::size_t i) const {
        auto it = inputs.find(tensors[i]);
        if (it == inputs.end())
            fail_at(ref.loc, "reference " + ref.name + ": no tensor '" + tensors[i] + "'");
        return it->second;
    }
    double attr(const std::string& key, double fallback) const {
        for (const auto& [k, v] : attrs)
            if (k == key)
                return v;
        return fallback;
    }
};

[[noreturn]] void shape_error(const RefArgs& a, const std::string& what) {
    fail_at(a.ref.loc, "reference " + a.ref.name + ": " + what);
}

// An output tensor shaped like the given one, zero-filled, holding unrounded values.
HostTensor output_like(const HostTensor& t) {
    return HostTensor{t.dtype, t.shape, std::vector<double>(t.data.size(), 0.0)};
}

// Leading dimensions of a rank ≥ 2 shape, multiplied together.
int64_t batch_of(const ir::Shape& s) {
    return element_count(ir::Shape(s.begin(), s.end() - 2));
}

// C[b] = A[b]·B[b] over matching leading batch dimensions (none for a plain gemm).
HostTensor matmul(const RefArgs& a, const HostTensor& C, const HostTensor& A,
                  const HostTensor& B) {
    const auto& cs = C.shape;
    const auto& as = A.shape;
    const auto& bs = B.shape;
    const std::size_t r = cs.size();
    if (r < 2 || as.size() != r || bs.size() != r ||
        !std::equal(cs.begin(), cs.end() - 2, as.begin()) ||
        !std::equal(cs.begin(), cs.end() - 2, bs.begin()) || as[r - 2] != cs[r - 2] ||
        bs[r - 1] != cs[r - 1] || as[r - 1] != bs[r - 2])
        shape_error(a, "shapes " + ir::shape_string(cs) + " = " + ir::shape_string(as) + " · " +
                           ir::shape_string(bs) + " do not agree");
    const int64_t batch = batch_of(cs), m = cs[r - 2], n = cs[r - 1], k = as[r - 1];
    HostTensor out = output_like(C);
    // Rows (over all batches) in blocks of kRowBlock, so a B row read from memory serves the
    // whole block; blocks spread over the cores (`kiln run --gpu` checks 4096³ GEMMs against
    // this). Every element still sums over kk in order: the result does not depend on threads.
    constexpr int64_t kRowBlock = 16;
    const int64_t blocks = (batch * m + kRowBlock - 1) / kRowBlock;
    auto block_rows = [&](int64_t blk) {
        const int64_t first = blk * kRowBlock, last = std::min(first + kRowBlock, batch * m);
        for (int64_t kk = 0; kk < k; ++kk)
            for (int64_t row = first; row < last; ++row) {
                const int64_t b = row / m; // a block may straddle two batches
                const double av = A.data[row * k + kk];
                const double* brow = &B.data[(b * k + kk) * n];
                double* crow = &out.data[row * n];
                for (int64_t j = 0; j < n; ++j)
                    crow[j] += av * brow[j];
            }
    };
    const int64_t work = batch * m * n * k;
    const int64_t threads =
        work < (int64_t(1) << 24)
            ? 1
            : std::min<int64_t>(blocks, std::max(1u, std::thread::hardware_concurrency()));
    std::vector<std::thread> pool;
    for (int64_t t = 1; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int64_t blk = t; blk < blocks; blk += threads)
                block_rows(blk);
        });
    for (int64_t blk = 0; blk < blocks; blk += threads)
        block_rows(blk);
    for (auto& th : pool)
        th.join();
    return out;
}

void require_arity(const RefArgs& a, std::size_t n) {
    if (a.tensors.size() != n)
        shape_error(a, "takes " + std::to_string(n) + " tensors, got " +
                           std::to_string(a.tensors.size()));
}

TensorMap gemm(const RefArgs& a) {
    require_arity(a, 3);
    return {{a.tensors[0], matmul(a, a.tensor(0), a.tensor(1), a.tensor(2))}};
}

TensorMap dual_gemm_swiglu(const RefArgs& a) {
    require_arity(a, 4);
    HostTensor gate = matmul(a, a.tensor(0), a.tensor(1), a.tensor(2));
    const HostTensor up = matmul(a, a.tensor(0), a.tensor(1), a.tensor(3));
    for (std::size_t i = 0; i < gate.data.size(); ++i) {
        const double g = gate.data[i];
        gate.data[i] = g / (1.0 + std::exp(-g)) * up.data[i];
    }
    return {{a.tensors[0], std::move(gate)}};
}

TensorMap gemm_rowsum(const RefArgs& a) {
    require_arity(a, 4);
    HostTensor c = matmul(a, a.tensor(0), a.tensor(2), a.tensor(3));
    const HostTensor& r = a.tensor(1);
    if (c.shape.size() != 2 || r.shape != ir::Shape{c.shape[0]})
        shape_error(a, "r " + ir::shape_string(r.shape) + " needs one element per row of C " +
                           ir::shape_string(c.shape));
    HostTensor rs = output_like(r);
    for (int64_t i = 0; i < c.shape[0]; ++i)
        for (int64_t j = 0; j < c.shape[1]; ++j)
            rs.data[i] += c.data[i * c.shape[1] + j];
    return {{a.tensors[0], std::move(c)}, {a.tensors[1], std::move(rs)}};
}

TensorMap attention(const RefArgs& a) {
    require_arity(a, 4);
    const HostTensor &O = a.tensor(0), &Q = a.tensor(1), &K = a.tensor(2), &V = a.tensor(3);
    const std::size_t r = Q.shape.size();
    auto lead_equal = [&](const ir::Shape& s) {
        return s.size() == r && std::equal(s.begin(), s.end() - 2, Q.shape.begin());
    };
    if (r < 2 || !lead_equal(K.shape) || !lead_equal(V.shape) || !lead_equal(O.shape) ||
        K.shape[r - 1] != Q.shape[r - 1] || V.shape[r - 2] != K.shape[r - 2] ||
        O.shape[r - 2] != Q.shape[r - 2] || O.shape[r - 1] != V.shape[r - 1])
        shape_error(a, "shapes O " + ir::shape_string(O.shape) + ", Q " +
                           ir::shape_string(Q.shape) + ", K " + ir::shape_string(K.shape) +
                           ", V " + ir::shape_string(V.shape) + " do not agree");
    const int64_t batch = batch_of(Q.shape), sq = Q.shape[r - 2], d = Q.shape[r - 1];
    const int64_t sk = K.shape[r - 2], dv = V.shape[r - 1];
    const bool causal = a.attr("causal", 0) != 0;
    const double scale = a.attr("scale", 1.0 / std::sqrt(static_cast<double>(d)));
    HostTensor out = output_like(O);
    std::vector<double> p(sk);
    for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < sq; ++i) {
            const double* q = &Q.data[(b * sq + i) * d];
            double mx = -std::numeric_limits<double>::infinity();
            for (int64_t j = 0; j < sk; ++j) {
                const double* k = &K.data[(b * sk + j) * d];
                double s = 0;
                for (int64_t e = 0; e < d; ++e)
                    s += q[e] * k[e];
                p[j] = causal && j > i ? -std::numeric_limits<double>::infinity() : s * scale;
                mx = std::max(mx, p[j]);
            }
            double sum = 0;
            for (int64_t j = 0; j < sk; ++j)
                sum += p[j] = std::exp(p[j] - mx);
            double* o = &out.data[(b * sq + i) * dv];
            for (int64_t j = 0; j < sk; ++j)
                for (int64_t e = 0; e < dv; ++e)
                    o[e] += p[j] / sum * V.data[(b * sk + j) * dv + e];
        }
    return {{a.tensors[0], std::move(out)}};
}

struct Builtin {
    const char* name;
    TensorMap (*fn)(const RefArgs&);
};

constexpr Builtin kReferences[] = {
    {"attention", attention},
    {"batched_gemm", gemm},
    {"dual_gemm_swiglu", dual_gemm_swiglu},
    {"gemm", gemm},
    {"gemm_rowsum", gemm_rowsum},
};

} // namespace

Result<TensorMap> run_reference(const ir::Program& p, const Sizes& sizes,
                                const TensorMap& inputs) {
    if (!p.reference)
        return Diagnostic{p.loc, "program " + p.name + " names no reference"};
    const ir::Reference& ref = *p.reference;
    RefArgs args{ref, inputs, {}, {}};
    for (const auto& a : ref.args) {
        if (a.value)
            args.attrs.emplace_back(a.name, *a.value);
        else
            args.tensors.push_back(a.name);
    }
    for (const auto& b : kReferences) {
        if (ref.name != b.name)
            continue;
        try {
            return b.fn(args);
        } catch (const DiagnosticError& e) {
            return e.diag;
        }
    }
    return Diagnostic{ref.loc, "unknown reference '" + ref.name + "'"};
}

std::vector<std::string> reference_names() {
    std::vector<std::string> out;
    for (const auto& b : kReferences)
        out.emplace_back(b.name);
    return out;
}

} // namespace kiln::interp
