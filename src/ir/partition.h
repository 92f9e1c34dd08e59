#pragma once
// Semantics of the partition operators, shared by the verifier, the instantiator and the
// interpreter: the grid a partition has, the shape of each piece, whether pieces overlap, and
// where an element of a piece lives in the partitioned tensor.
//
// blocks(T, tile[, pad]): row-major tiling; with `pad` the edge pieces keep the full tile shape
//   and their elements outside T read as zero and drop writes (the TMA's out-of-bounds rule).
// mma(T, role, level[, n]): the wgmma m64nNk16 layouts. WARPGROUP splits into instruction-sized
//   pieces (64 rows, n columns); WARP gives each of the 4 warps 16 rows; THREAD gives lane t the
//   rows {t/4, t/4 + 8} and, for accumulator columns, {8j + 2(t%4), 8j + 2(t%4) + 1 : all j}.
#include "ir/diagnostic.h"
#include "ir/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::ir {

using Shape = std::vector<int64_t>;
std::string shape_string(const Shape& s); // "[64, 128]"

struct BlocksSpec {
    std::vector<std::optional<int64_t>> tile; // nullopt = squeezed dimension
    Remainder remainder = Remainder::Exact;
};

struct MmaSpec {
    MmaRole role = MmaRole::Acc;
    Level level = Level::Warp;
    int64_t n = 0; // instruction N, WARPGROUP only
};

struct PartitionSpec {
    bool is_mma = false;
    BlocksSpec blocks;
    MmaSpec mma;
};

struct PartitionShape {
    Shape grid;  // extent of each grid dimension (the index space)
    Shape piece; // shape of every piece
};

// Checks the spec against the partitioned tensor's shape; `what` names the tensor in messages.
Result<PartitionShape> partition_shape(const PartitionSpec& spec, const Shape& source,
                                       const std::string& what, const Loc& loc);

// True when different grid indices never share an element.
bool partition_disjoint(const PartitionSpec& spec);

// The element of the source tensor that `coord` of piece `index` stands for. Returns false when
// it lies outside the source (only possible for padded blocks).
bool piece_to_source(const PartitionSpec& spec, const Shape& source, const Shape& index,
                     const Shape& coord, Shape& out);

} // namespace kiln::ir
