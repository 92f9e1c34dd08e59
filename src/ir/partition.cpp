#include "ir/partition.h"

#include <cassert>

namespace kiln::ir {

std::string shape_string(const Shape& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.size(); ++i)
        out += (i ? ", " : "") + std::to_string(s[i]);
    return out + "]";
}

namespace {

Result<PartitionShape> blocks_shape(const BlocksSpec& b, const Shape& src, const std::string& what,
                                    const Loc& loc) {
    if (b.tile.size() != src.size())
        return Diagnostic{loc, "blocks partition of " + what + " has a " +
                                   std::to_string(b.tile.size()) + "-d tile but " + what +
                                   " has shape " + shape_string(src)};
    PartitionShape ps;
    for (std::size_t d = 0; d < src.size(); ++d) {
        if (!b.tile[d]) {
            ps.grid.push_back(src[d]);
            continue;
        }
        int64_t t = *b.tile[d];
        if (t <= 0)
            return Diagnostic{loc, "blocks partition of " + what + ": tile dimension " +
                                       std::to_string(d) + " is " + std::to_string(t) +
                                       ", must be positive"};
        if (src[d] % t != 0 && b.remainder == Remainder::Exact)
            return Diagnostic{loc, "blocks partition of " + what + " (shape " +
                                       shape_string(src) + ") by tile " + std::to_string(t) +
                                       " does not divide dimension " + std::to_string(d) + " (" +
                                       std::to_string(src[d]) + " % " + std::to_string(t) +
                                       " = " + std::to_string(src[d] % t) +
                                       "); declare a remainder policy: blocks(..., pad)"};
        ps.grid.push_back((src[d] + t - 1) / t);
        ps.piece.push_back(t);
    }
    return ps;
}

Diagnostic mma_error(const Loc& loc, const std::string& what, const MmaSpec& m, const Shape& src,
                     const std::string& need) {
    return Diagnostic{loc, "mma partition (" + std::string(spelling(m.role)) + ", " +
                               std::string(spelling(m.level)) + ") of " + what + " with shape " +
                               shape_string(src) + ": " + need};
}

bool has_rows(MmaRole r) { return r == MmaRole::Acc || r == MmaRole::Lhs || r == MmaRole::Row; }

Result<PartitionShape> mma_shape(const MmaSpec& m, const Shape& src, const std::string& what,
                                 const Loc& loc) {
    std::size_t rank = m.role == MmaRole::Row ? 1 : 2;
    if (src.size() != rank)
        return mma_error(loc, what, m, src, "needs a " + std::to_string(rank) + "-d tensor");
    // Column extent of the N dimension for roles that have one.
    int64_t ncols = m.role == MmaRole::Acc || m.role == MmaRole::Rhs ? src[1]
                    : m.role == MmaRole::RhsT                       ? src[0]
                                                                    : 0;
    int64_t rows = has_rows(m.role) ? src[0] : 0;
    switch (m.level) {
    case Level::Warpgroup: {
        if (m.n <= 0 || m.n > 256 || m.n % 8 != 0)
            return mma_error(loc, what, m, src,
                             "instruction N is " + std::to_string(m.n) +
                                 ", must be a multiple of 8 in [8, 256]");
        if (has_rows(m.role) && rows % 64 != 0)
            return mma_error(loc, what, m, src, "rows must be a multiple of 64");
        if (ncols && ncols % m.n != 0)
            return mma_error(loc, what, m, src,
                             "columns must be a multiple of N = " + std::to_string(m.n));
        switch (m.role) {
        case MmaRole::Acc:
            return PartitionShape{{rows / 64, ncols / m.n}, {64, m.n}};
        case MmaRole::Lhs:
            return PartitionShape{{rows / 64}, {64, src[1]}};
        case MmaRole::Rhs:
            return PartitionShape{{ncols / m.n}, {src[0], m.n}};
        case MmaRole::RhsT:
            return PartitionShape{{ncols / m.n}, {m.n, src[1]}};
        case MmaRole::Row:
            return PartitionShape{{rows / 64}, {64}};
        }
        break;
    }
    case Level::Warp: {
        if (has_rows(m.role) && rows != 64)
            return mma_error(loc, what, m, src, "a warpgroup's piece has exactly 64 rows");
        Shape piece = src;
        if (has_rows(m.role))
            piece[0] = 16;
        return PartitionShape{{4}, piece};
    }
    case Level::Thread: {
        if (has_rows(m.role) && rows != 16)
            return mma_error(loc, what, m, src, "a warp's piece has exactly 16 rows");
        if (ncols % 8 != 0)
            return mma_error(loc, what, m, src, "columns must be a multiple of 8");
        Shape piece = src;
        if (has_rows(m.role))
            piece[0] = 2;
        if (m.role == MmaRole::Acc || m.role == MmaRole::Rhs)
            piece[1] = ncols / 4;
        if (m.role == MmaRole::RhsT)
            piece[0] = ncols / 4;
        return PartitionShape{{32}, piece};
    }
    default:
        break;
    }
    return mma_error(loc, what, m, src, "level must be WARPGROUP, WARP or THREAD");
}

// Column of an accumulator fragment: lane quarter q holds columns 8j + 2q + {0, 1}.
int64_t fragment_col(int64_t lane, int64_t c) { return 8 * (c / 2) + 2 * (lane % 4) + c % 2; }

void mma_to_source(const MmaSpec& m, const Shape& index, const Shape& c, Shape& out) {
    out = c;
    switch (m.level) {
    case Level::Warpgroup:
        switch (m.role) {
        case MmaRole::Acc:
            out = {index[0] * 64 + c[0], index[1] * m.n + c[1]};
            return;
        case MmaRole::Lhs:
        case MmaRole::Row:
            out[0] = index[0] * 64 + c[0];
            return;
        case MmaRole::Rhs:
            out[1] = index[0] * m.n + c[1];
            return;
        case MmaRole::RhsT:
            out[0] = index[0] * m.n + c[0];
            return;
        }
        return;
    case Level::Warp:
        if (has_rows(m.role))
            out[0] = index[0] * 16 + c[0];
        return;
    case Level::Thread: {
        int64_t lane = index[0];
        if (has_rows(m.role))
            out[0] = lane / 4 + 8 * c[0];
        if (m.role == MmaRole::Acc || m.role == MmaRole::Rhs)
            out[1] = fragment_col(lane, c[1]);
        if (m.role == MmaRole::RhsT)
            out[0] = fragment_col(lane, c[0]);
        return;
    }
    default:
        assert(false && "mma partition at a level the verifier rejects");
    }
}

} // namespace

Result<PartitionShape> partition_shape(const PartitionSpec& spec, const Shape& source,
                                       const std::string& what, const Loc& loc) {
    return spec.is_mma ? mma_shape(spec.mma, source, what, loc)
                       : blocks_shape(spec.blocks, source, what, loc);
}

bool partition_disjoint(const PartitionSpec& spec) {
    if (!spec.is_mma)
        return true;
    switch (spec.mma.role) {
    case MmaRole::Acc:
        return true;
    case MmaRole::Lhs:
    case MmaRole::Row:
        return spec.mma.level != Level::Thread; // the 4 lanes of a quad share rows
    case MmaRole::Rhs:
    case MmaRole::RhsT:
        return spec.mma.level == Level::Warpgroup; // every warp / lane group reads all of K
    }
    return false;
}

bool piece_to_source(const PartitionSpec& spec, const Shape& source, const Shape& index,
                     const Shape& coord, Shape& out) {
    if (spec.is_mma) {
        mma_to_source(spec.mma, index, coord, out);
        return true;
    }
    out.assign(source.size(), 0);
    std::size_t k = 0;
    bool inside = true;
    for (std::size_t d = 0; d < source.size(); ++d) {
        const auto& t = spec.blocks.tile[d];
        out[d] = t ? index[d] * *t + coord[k++] : index[d];
        inside = inside && out[d] < source[d];
    }
    return inside;
}

} // namespace kiln::ir
