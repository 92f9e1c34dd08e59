#include "interp/leaf_eval.h"

#include "interp/externals.h"
#include "ir/leaf_ops.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace kiln::interp {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// max/min that keep poison visible (std::fmax would hide a NaN).
double nan_max(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::max(a, b); }
double nan_min(double a, double b) { return std::isnan(a) || std::isnan(b) ? kNaN : std::min(a, b); }

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

using UnaryFn = double (*)(double);
using BinaryFn = double (*)(double, double);

const std::unordered_map<std::string, UnaryFn>& unary_fns() {
    static const std::unordered_map<std::string, UnaryFn> fns = {
        {"exp", [](double x) { return std::exp(x); }},
        {"exp2", [](double x) { return std::exp2(x); }},
        {"log", [](double x) { return std::log(x); }},
        {"neg", [](double x) { return -x; }},
        {"abs", [](double x) { return std::fabs(x); }},
        {"sqrt", [](double x) { return std::sqrt(x); }},
        {"recip", [](double x) { return 1.0 / x; }},
        {"relu", [](double x) { return std::isnan(x) ? x : std::max(x, 0.0); }},
        {"sigmoid", sigmoid},
        {"silu", [](double x) { return x * sigmoid(x); }},
        // The exact (erf) GELU, as torch.nn.functional.gelu computes it by default.
        {"gelu", [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }},
        {"tanh", [](double x) { return std::tanh(x); }},
    };
    return fns;
}

const std::unordered_map<std::string, BinaryFn>& binary_fns() {
    static const std::unordered_map<std::string, BinaryFn> fns = {
        {"add", [](double x, double y) { return x + y; }},
        {"sub", [](double x, double y) { return x - y; }},
        {"mul", [](double x, double y) { return x * y; }},
        {"div", [](double x, double y) { return x / y; }},
        {"max", nan_max},
        {"min", nan_min},
    };
    return fns;
}

std::string shape_of(const View& v) { return ir::shape_string(v.shape()); }

void require_rank(const View& v, std::size_t rank, const std::string& op, const std::string& what,
                  const Loc& loc) {
    if (v.shape().size() != rank)
        fail_at(loc, op + ": " + what + " must be " + std::to_string(rank) + "-d, has shape " +
                         shape_of(v));
}

void require_count(const std::vector<LeafArg>& args, std::size_t n, const std::string& op,
                   const Loc& loc) {
    if (args.size() != n)
        fail_at(loc, op + " takes " + std::to_string(n) + " operands, got " +
                         std::to_string(args.size()));
}

// An X/Y operand of a binary op expanded to one value per element of `dst`: a tensor of dst's
// shape, a rank-1 tensor with one value per row of dst (broadcast along the row), or a scalar.
std::vector<double> broadcast_operand(const std::vector<LeafArg>& args, std::size_t i,
                                      const View& dst, const std::string& op) {
    const LeafArg& a = args[i];
    const int64_t n = dst.size();
    if (!a.tensor)
        return std::vector<double>(n, a.scalar);
    const View& x = *a.tensor;
    if (x.shape() == dst.shape())
        return read_all(x);
    if (x.shape().size() == 1 && dst.shape().size() >= 2 && x.shape()[0] == dst.shape()[0]) {
        const auto rows = read_all(x);
        const int64_t per_row = n / dst.shape()[0];
        std::vector<double> out(n);
        for (int64_t e = 0; e < n; ++e)
            out[e] = rows[e / per_row];
        return out;
    }
    fail_at(a.loc, op + ": operand " + std::to_string(i + 1) + " has shape " + shape_of(x) +
                       "; it must have the destination's shape " + shape_of(dst) +
                       ", be a vector with one value per row, or be a scalar");
}

// Where element (kk, j) of the B operand lives: b[kdim[kk] + jdim[j]].
struct BOperand {
    const double* b;
    std::vector<int64_t> kdim, jdim;
    std::vector<double> gathered; // owns `b` when B had padding and was copied out
};

// B read in place from its root when no element is padding (the common case: no copy, no
// allocation per element); otherwise gathered, padding as zeros, into a dense [n][k] copy.
BOperand b_operand(const View& B, bool b_transposed) {
    const View::Offsets& o = B.offsets();
    bool padded = o.outside;
    for (const auto& d : o.dim)
        padded = padded || std::any_of(d.begin(), d.end(), [](int64_t x) { return x < 0; });
    BOperand op;
    if (!padded) {
        op.b = B.root().data.data() + o.base;
        op.kdim = o.dim[b_transposed ? 1 : 0];
        op.jdim = o.dim[b_transposed ? 0 : 1];
        return op;
    }
    op.gathered = read_all(B);
    const int64_t rows = B.shape()[0], cols = B.shape()[1];
    const int64_t k = b_transposed ? cols : rows, n = b_transposed ? rows : cols;
    for (int64_t kk = 0; kk < k; ++kk)
        op.kdim.push_back(b_transposed ? kk : kk * n);
    for (int64_t j = 0; j < n; ++j)
        op.jdim.push_back(b_transposed ? j * k : j);
    op.b = op.gathered.data();
    return op;
}

// C += A·B, rounding the running sum to C's dtype after every product. The running sums of
// kLanes neighbouring columns advance together: each is a chain of dependent roundings, and
// interleaving independent chains keeps the CPU busy.
template <class Round>
void mma_into(const View& C, const std::vector<double>& a, const BOperand& B, int64_t k,
              Round round) {
    constexpr int64_t kLanes = 4;
    const View::Offsets& o = C.offsets();
    if (o.outside)
        return;
    double* data = C.root().data.data();
    const int64_t m = C.shape()[0], n = C.shape()[1];
    const int64_t* kdim = B.kdim.data();
    for (int64_t i = 0; i < m; ++i) {
        if (o.dim[0][i] < 0)
            continue;
        const double* ar = a.data() + i * k;
        for (int64_t j0 = 0; j0 < n; j0 += kLanes) {
            const int64_t lanes = std::min(kLanes, n - j0);
            double acc[kLanes] = {0, 0, 0, 0};
            const double* bj[kLanes];
            for (int64_t u = 0; u < kLanes; ++u) {
                const int64_t j = j0 + std::min(u, lanes - 1); // spare lanes redo the last column
                bj[u] = B.b + B.jdim[j];
                if (u < lanes && o.dim[1][j] >= 0)
                    acc[u] = data[o.base + o.dim[0][i] + o.dim[1][j]];
            }
            for (int64_t kk = 0; kk < k; ++kk) {
                const double av = ar[kk];
                const int64_t kd = kdim[kk];
                for (int64_t u = 0; u < kLanes; ++u)
                    acc[u] = round(acc[u] + av * bj[u][kd]);
            }
            for (int64_t u = 0; u < lanes; ++u)
                if (o.dim[1][j0 + u] >= 0)
                    data[o.base + o.dim[0][i] + o.dim[1][j0 + u]] = acc[u];
        }
    }
}

void eval_mma(const ir::LeafOp& op, const std::vector<LeafArg>& args, bool b_transposed) {
    require_count(args, 3, op.op, op.loc);
    const View& C = tensor_operand(args, 0, op.op);
    const View& A = tensor_operand(args, 1, op.op);
    const View& B = tensor_operand(args, 2, op.op);
    require_rank(C, 2, op.op, "C", op.loc);
    require_rank(A, 2, op.op, "A", op.loc);
    require_rank(B, 2, op.op, "B", op.loc);
    const int64_t m = C.shape()[0], n = C.shape()[1], k = A.shape()[1];
    const ir::Shape want_b = b_transposed ? ir::Shape{n, k} : ir::Shape{k, n};
    if (A.shape()[0] != m || B.shape() != want_b)
        fail_at(op.loc, op.op + ": shapes C " + shape_of(C) + ", A " + shape_of(A) + ", B " +
                            shape_of(B) + " do not agree (B must be " +
                            ir::shape_string(want_b) + ")");
    const std::vector<double> a = read_all(A);
    const BOperand b = b_operand(B, b_transposed);
    const ir::DType dt = C.dtype();
    if (dt == ir::DType::F32)
        mma_into(C, a, b, k, [](double x) { return double(float(x)); });
    else
        mma_into(C, a, b, k, [dt](double x) { return round_to(dt, x); });
}

void eval_elementwise(const ir::LeafOp& op, const ir::LeafOpInfo& info,
                      const std::vector<LeafArg>& args) {
    require_count(args, info.operands.size(), op.op, op.loc);
    const View& dst = tensor_operand(args, 0, op.op);
    std::vector<double> out;
    switch (info.kind) {
    case ir::LeafKind::Fill:
        out.assign(dst.size(), scalar_operand(args, 1, op.op));
        break;
    case ir::LeafKind::Copy: {
        const View& src = tensor_operand(args, 1, op.op);
        require_same_shape(dst, src, op.op, op.loc);
        out = read_all(src);
        break;
    }
    case ir::LeafKind::AddInto: {
        const View& src = tensor_operand(args, 1, op.op);
        require_same_shape(dst, src, op.op, op.loc);
        out = read_all(dst);
        const auto s = read_all(src);
        for (std::size_t e = 0; e < out.size(); ++e)
            out[e] += s[e];
        break;
    }
    case ir::LeafKind::Scale: {
        const View& src = tensor_operand(args, 1, op.op);
        require_same_shape(dst, src, op.op, op.loc);
        const double s = scalar_operand(args, 2, op.op);
        out = read_all(src);
        for (double& v : out)
            v *= s;
        break;
    }
    case ir::LeafKind::Unary: {
        const View& src = tensor_operand(args, 1, op.op);
        require_same_shape(dst, src, op.op, op.loc);
        const UnaryFn f = unary_fns().at(op.op);
        out = read_all(src);
        for (double& v : out)
            v = f(v);
        break;
    }
    case ir::LeafKind::Binary: {
        const BinaryFn f = binary_fns().at(op.op);
        out = broadcast_operand(args, 1, dst, op.op);
        const auto y = broadcast_operand(args, 2, dst, op.op);
        for (std::size_t e = 0; e < out.size(); ++e)
            out[e] = f(out[e], y[e]);
        break;
    }
    default:
        fail_at(op.loc, "internal: " + op.op + " is not elementwise");
    }
    write_all(dst, out);
}

// rowsum/rowmax (along == 1: reduce each row) and colsum/colmax (along == 0: each column).
void eval_reduce(const ir::LeafOp& op, const std::vector<LeafArg>& args, int along) {
    require_count(args, 2, op.op, op.loc);
    const View& r = tensor_operand(args, 0, op.op);
    const View& S = tensor_operand(args, 1, op.op);
    require_rank(r, 1, op.op, "the destination", op.loc);
    require_rank(S, 2, op.op, "the source", op.loc);
    const int64_t keep = S.shape()[1 - along], over = S.shape()[along];
    if (r.shape()[0] != keep)
        fail_at(op.loc, op.op + ": destination " + shape_of(r) + " needs one element per " +
                            (along == 1 ? "row" : "column") + " of " + shape_of(S));
    const bool is_max = op.op == "rowmax" || op.op == "colmax";
    const auto s = read_all(S);
    auto acc = read_all(r);
    for (int64_t a = 0; a < keep; ++a)
        for (int64_t b = 0; b < over; ++b) {
            double v = along == 1 ? s[a * over + b] : s[b * keep + a];
            acc[a] = is_max ? nan_max(acc[a], v) : acc[a] + v;
        }
    write_all(r, acc);
}

// mask(S, row0, col0, ncols, causal): coordinates are those of S's root tensor.
void eval_mask(const ir::LeafOp& op, const std::vector<LeafArg>& args) {
    require_count(args, 5, op.op, op.loc);
    const View& S = tensor_operand(args, 0, op.op);
    require_rank(S, 2, op.op, "S", op.loc);
    const double row0 = scalar_operand(args, 1, op.op), col0 = scalar_operand(args, 2, op.op);
    const double ncols = scalar_operand(args, 3, op.op);
    const bool causal = scalar_operand(args, 4, op.op) != 0;
    const View::Offsets& o = S.offsets();
    if (o.outside)
        return;
    HostTensor& t = S.root();
    for (int64_t i = 0; i < S.shape()[0]; ++i)
        for (int64_t j = 0; j < S.shape()[1]; ++j) {
            if (o.dim[0][i] < 0 || o.dim[1][j] < 0)
                continue;
            const double row = row0 + S.root_coord(0, i), col = col0 + S.root_coord(1, j);
            if (col >= ncols || (causal && col > row))
                t.store(o.base + o.dim[0][i] + o.dim[1][j], -kInf);
        }
}

void dispatch(const ir::LeafOp& op, const std::vector<LeafArg>& args) {
    const ir::LeafOpInfo* info = ir::find_leaf_op(op.op);
    if (!info)
        fail_at(op.loc, "unknown leaf operation '" + op.op + "'");
    switch (info->kind) {
    case ir::LeafKind::Mma:
        return eval_mma(op, args, false);
    case ir::LeafKind::MmaBT:
        return eval_mma(op, args, true);
    case ir::LeafKind::RowReduce:
        return eval_reduce(op, args, 1);
    case ir::LeafKind::ColReduce:
        return eval_reduce(op, args, 0);
    case ir::LeafKind::Mask:
        return eval_mask(op, args);
    case ir::LeafKind::External:
        if (auto d = call_external(op.external, args, op.loc))
            throw DiagnosticError(*d);
        return;
    default:
        return eval_elementwise(op, *info, args);
    }
}

} // namespace

const View& tensor_operand(const std::vector<LeafArg>& args, std::size_t i, const std::string& op) {
    if (i >= args.size())
        fail_at({}, op + ": missing operand " + std::to_string(i + 1));
    if (!args[i].tensor)
        fail_at(args[i].loc, op + ": operand " + std::to_string(i + 1) + " must be a tensor");
    return *args[i].tensor;
}

double scalar_operand(const std::vector<LeafArg>& args, std::size_t i, const std::string& op) {
    if (i >= args.size())
        fail_at({}, op + ": missing operand " + std::to_string(i + 1));
    if (args[i].tensor)
        fail_at(args[i].loc, op + ": operand " + std::to_string(i + 1) + " must be a scalar");
    return args[i].scalar;
}

void require_same_shape(const View& a, const View& b, const std::string& op, const Loc& loc) {
    if (a.shape() != b.shape())
        fail_at(loc, op + ": shapes " + shape_of(a) + " and " + shape_of(b) + " differ");
}

std::optional<Diagnostic> eval_leaf(const ir::LeafOp& op, const std::vector<LeafArg>& args) {
    try {
        dispatch(op, args);
    } catch (const DiagnosticError& e) {
        Diagnostic d = e.diag;
        if (!d.loc.known())
            d.loc = op.loc;
        return d;
    }
    return std::nullopt;
}

} // namespace kiln::interp
