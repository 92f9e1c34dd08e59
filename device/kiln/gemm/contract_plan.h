// kiln::gemm contraction planning (GETT, GemmKernels §4.2.2): how contract() runs a tensor
// contraction D = A * B as one GEMM on the sm90 kernel, and when it first copies an operand
// into another mode order.
//
// The GEMM reads the tensors where they are: M = the free modes of one operand, N = those of the
// other, K = the contracted modes, each group folded into at most two (extent, stride) modes and
// addressed by TMA (views.h). Two layouts defeat that view:
//   - the operands disagree on K: each has a contracted mode contiguous but in a different order
//     (ab = acd * dbc), so no k-block is a contiguous run of both;
//   - D's contiguous mode is not the inner free mode of its operand (abc = dca * bd), so the
//     epilogue's neighbouring columns land far apart in D and every element is a lone store.
// There an operand is copied first, with its free modes in D's order and its contracted modes in
// its partner's order: a dense K-major matrix (what torch.einsum does before its GEMM, but only
// for the operand that needs it). plan_contraction weighs those copies by their bytes.
//
// Plain C++ (no CUDA): host code and unit tests call it.
#pragma once
#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#include "kiln/gemm/views.h"

namespace kiln::gemm::gett {

/// Stride in elements of `mode` in tensor `t` (dense, row-major in the order of its modes).
inline int64_t mode_stride(const std::string& t, char mode, const int* ext) {
    int64_t stride = 1;
    for (size_t i = t.find(mode) + 1; i < t.size(); ++i) stride *= ext[t[i] - 'a'];
    return stride;
}

inline bool has_mode(const std::string& t, char m) { return t.find(m) != std::string::npos; }

/// Folds `modes` (inner first) of tensor t into at most two (extent, stride) pairs: a mode whose
/// stride continues the previous one merges with it. False when more than two remain.
inline bool fold(const std::vector<char>& modes, const std::string& t, const int* ext, int (&e)[2],
                 int64_t (&s)[2]) {
    std::vector<std::pair<int64_t, int64_t>> out;
    for (char m : modes) {
        const int64_t x = ext[m - 'a'], st = mode_stride(t, m, ext);
        if (x == 1) continue;
        if (!out.empty() && out.back().first * out.back().second == st) out.back().first *= x;
        else out.push_back({x, st});
    }
    if (out.size() > 2) return false;
    e[0] = e[1] = 1;
    s[0] = s[1] = 0;
    for (size_t i = 0; i < out.size(); ++i) {
        if (out[i].first > INT_MAX) return false;
        e[i] = int(out[i].first), s[i] = out[i].second;
    }
    return true;
}

/// The mode rules of a contraction: every mode of D in exactly one operand, every other mode
/// in both operands, no mode twice in one tensor.
inline bool contract_valid(const std::string& d, const std::string& a, const std::string& b) {
    for (const std::string* t : {&d, &a, &b})
        for (size_t i = 0; i < t->size(); ++i)
            if (t->find((*t)[i], i + 1) != std::string::npos) return false;
    for (char m : d)
        if (has_mode(a, m) == has_mode(b, m)) return false;
    for (char m : a)
        if (!has_mode(d, m) && !has_mode(b, m)) return false;
    for (char m : b)
        if (!has_mode(d, m) && !has_mode(a, m)) return false;
    return true;
}

/// A contraction as one GEMM. The GEMM's A operand is the contraction's B when `swapped`
/// (chosen so that D's contiguous mode indexes columns); the views' pointers are left null.
struct GemmView {
    bool ok = false;
    bool swapped = false;
    OperandView va, vb;
    OutView vd;
    int M = 0, N = 0, K = 0;
    /// Neighbouring columns are neighbours in D: the epilogue stores element pairs.
    bool contiguous_columns() const { return vd.cs0 == 1 && (vd.c0 == INT_MAX || vd.c0 % 2 == 0); }
};

/// Views d = a * b as one GEMM over `elem_bytes`-byte inputs; ok = false when a group does not
/// fold to two modes or a view breaks the sm90 kernel's shape rules.
inline GemmView view_as_gemm(std::string d, std::string a, std::string b, const int* ext,
                             int elem_bytes) {
    GemmView g;
    if (a.empty() || b.empty() || d.empty() || !contract_valid(d, a, b)) return g;
    // D's contiguous mode should index D's columns (pair stores): swap the operands otherwise.
    char inner = 0;
    for (int i = int(d.size()) - 1; i >= 0 && !inner; --i)
        if (ext[d[i] - 'a'] > 1) inner = d[i];
    if (inner && has_mode(a, inner)) std::swap(a, b), g.swapped = true;
    std::vector<char> fm, fn, fk;  // free modes of A (rows), of B (columns), contracted
    for (char m : a) (has_mode(d, m) ? fm : fk).push_back(m);
    for (char m : b)
        if (has_mode(d, m)) fn.push_back(m);
    auto by_stride = [&](std::vector<char>& v, const std::string& t) {
        std::sort(v.begin(), v.end(), [&](char x, char y) {
            return mode_stride(t, x, ext) < mode_stride(t, y, ext);
        });
    };
    by_stride(fm, a);
    by_stride(fn, b);
    // K order: that of the operand whose contiguous mode is contracted (its K-major view).
    const bool b_kmajor = !has_mode(d, b.back()) && has_mode(d, a.back());
    by_stride(fk, b_kmajor ? b : a);
    auto operand = [&](OperandView& v, const std::vector<char>& rows, const std::string& t) {
        if (!fold(rows, t, ext, v.rows, v.row_stride) || !fold(fk, t, ext, v.ks, v.k_stride))
            return false;
        v.mn_major = v.row_stride[0] == 1 && v.rows[0] > 1;
        return sm90_view_ok(v, elem_bytes);
    };
    if (!operand(g.va, fm, a) || !operand(g.vb, fn, b)) return g;
    int e[2];
    int64_t st[2];
    if (!fold(fm, d, ext, e, st)) return g;
    g.vd.r0 = e[1] > 1 ? e[0] : INT_MAX, g.vd.rs0 = st[0], g.vd.rs1 = st[1];
    if (!fold(fn, d, ext, e, st)) return g;
    g.vd.c0 = e[1] > 1 ? e[0] : INT_MAX, g.vd.cs0 = st[0], g.vd.cs1 = st[1];
    if (fn.empty()) g.vd.cs0 = 1;  // N == 1: a single column, any stride
    // The epilogue walks columns 8 at a time inside the inner column mode.
    if (g.vd.c0 != INT_MAX && g.vd.c0 % 8 != 0) return g;
    int64_t M = 1, N = 1, K = 1;
    for (char m : fm) M *= ext[m - 'a'];
    for (char m : fn) N *= ext[m - 'a'];
    for (char m : fk) K *= ext[m - 'a'];
    if (M > INT_MAX || N > INT_MAX || K > INT_MAX || K == 0) return g;
    g.M = int(M), g.N = int(N), g.K = int(K);
    g.ok = true;
    return g;
}

/// Whether 128 x 256 tiles of this view run in 2-CTA clusters (sharing B) even in a single
/// wave: a B read transposed through a two-mode view arrives as 64-row chunks of a rank-4 or -5
/// tensor map, and pairs halve the chunks each CTA loads. At the 2048^3 GETT sizes the three
/// such contractions ran 12-19% faster paired, the seven others 0-6% slower (bench/NOTES.md,
/// session 10), as plain GEMMs do in one wave.
inline bool pair_tiles(const GemmView& g) { return g.vb.mn_major && g.vb.rows[1] > 1; }

/// The mode order operand t is copied to: its free modes in D's order, then its contracted modes
/// in `partner`'s order, so the copy is a K-major matrix whose rows follow D and whose k-index
/// runs as the partner's does.
inline std::string gemm_order(const std::string& t, const std::string& d,
                              const std::string& partner) {
    std::string out;
    for (char m : d)
        if (has_mode(t, m)) out += m;
    for (char m : partner)
        if (has_mode(t, m) && !has_mode(d, m)) out += m;
    return out;
}

/// How contract() runs d = a * b: the mode strings the GEMM reads (a differs from the input
/// where A is copied first, b likewise) and their view.
struct ContractPlan {
    std::string a, b;
    bool copy_a = false, copy_b = false;
    GemmView view;
    bool ok() const { return view.ok; }
};

inline int64_t elements(const std::string& t, const int* ext) {
    int64_t n = 1;
    for (char m : t) n *= ext[m - 'a'];
    return n;
}

/// The layout to run: the tensors as they are when their view works and D's columns are
/// contiguous; else the cheapest copy (fewest elements: A, B, or both) whose view does; else the
/// tensors as they are if their view works at all; else !ok (the generic kernel's case).
inline ContractPlan plan_contraction(const std::string& d, const std::string& a,
                                     const std::string& b, const int* ext, int elem_bytes) {
    ContractPlan direct{a, b, false, false, view_as_gemm(d, a, b, ext, elem_bytes)};
    if (direct.ok() && direct.view.contiguous_columns()) return direct;
    const std::string a2 = gemm_order(a, d, b), b2 = gemm_order(b, d, a);
    const std::string b3 = gemm_order(b, d, a2);  // both copied: B's k order follows A's copy
    const ContractPlan copies[3] = {
        {a2, b, true, false, view_as_gemm(d, a2, b, ext, elem_bytes)},
        {a, b2, false, true, view_as_gemm(d, a, b2, ext, elem_bytes)},
        {a2, b3, true, true, view_as_gemm(d, a2, b3, ext, elem_bytes)}};
    const ContractPlan* best = nullptr;
    int64_t best_cost = 0;
    for (const ContractPlan& c : copies) {
        if (!c.ok() || !c.view.contiguous_columns()) continue;
        const int64_t cost =
            (c.copy_a ? elements(a, ext) : 0) + (c.copy_b ? elements(b, ext) : 0);
        if (!best || cost < best_cost) best = &c, best_cost = cost;
    }
    return best ? *best : direct;
}

}  // namespace kiln::gemm::gett
