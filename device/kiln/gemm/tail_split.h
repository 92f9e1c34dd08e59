// kiln::gemm tail split — the last, partial wave of a persistent launch split along K.
//
// A persistent grid of S workers (CTAs, or clusters) over T tiles runs ceil(T / S) waves; when
// T % S = r is small the last wave keeps only r workers busy while the rest idle for a whole
// tile's time (2304 x 2048 x 8192 in 128 x 256 tiles on 66 pairs: 72 tiles, the second wave 6
// of them). The tail split runs the first T - r tiles whole in one launch and the last r split
// along K into `splits` parts in a second, so the last wave takes about 1 / splits of a tile's
// time. The second launch is an ordinary split-K launch (split_k.cuh, unpaired) over a
// TileRange of the scheduler's order; programmatic dependent launch (kiln/grid_dependency.cuh)
// lets its CTAs take the SMs as the first launch's leave.
//
// Why not stream-K (one even share of the tail's k-blocks per worker, Osama et al. PPoPP'23):
// measured on an H100 (bench/NOTES.md, "v16") it was slower than whole tiles wherever the last
// wave was over half full and gained less than this split where it was not. Its shares start at
// different k, so workers on neighbouring tiles no longer stream the same k-slices of A and B
// through L2 together; the splits of a tail split do (split j of every tail tile reads k-range
// j at once). Why two launches rather than one: deciding per unit whether to run the fix-up kept
// one more register live through the mainloop and spilled the split 128 x 256 kernels (so did a
// paired split kernel: the second launch runs unpaired).
// Plain C++; params.h makes the plan.
#pragma once

namespace kiln::gemm {

/// The tiles [begin, begin + count) of a persistent launch's order; count 0: all from begin on.
/// pair_rows (unpaired launches): walk the M-tiles rounded up to even, as a paired launch does
/// (its last pair's second row lies past M when they are odd), so that pair (m, n) of a paired
/// order is CTA tiles (2m, n) and (2m + 1, n) of this one.
struct TileRange {
    int begin = 0, count = 0;
    bool pair_rows = false;
};

/// The split tail of a problem. tiles == 0: none, one launch runs every tile whole.
struct TailSplit {
    int first = 0;   // first split tile, in the scheduler's order: the whole ones come before
    int tiles = 0;   // split tiles: first .. first + tiles - 1, the last of the order
    int splits = 0;  // K splits per split tile
};

/// The first launch's tiles: the whole ones, in the order of its clusters' tiles.
constexpr TileRange whole_tiles(const TailSplit& t) { return {0, t.first}; }

/// The second, unpaired launch's tiles after a first launch of `cluster_m` CTAs per cluster
/// (1 or 2): the same CTA tiles, walked in rows rounded up as the pairs' are.
constexpr TileRange split_tiles(const TailSplit& t, int cluster_m) {
    return {t.first * cluster_m, t.tiles * cluster_m, cluster_m == 2};
}

}  // namespace kiln::gemm
