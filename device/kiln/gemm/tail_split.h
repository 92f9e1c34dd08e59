// kiln::gemm tail split — the last, partial wave of a persistent launch split along K.
//
// A persistent grid of S workers (CTAs, or clusters) over T tiles runs ceil(T / S) waves; when
// T % S = r is small the last wave keeps only r workers busy while the rest idle for a whole
// tile's time (2304 x 2048 x 8192 in 128 x 256 tiles on 66 pairs: 72 tiles, the second wave 6
// of them). The tail split runs the first T - r tiles whole and splits each of the last r along K
// into `splits` parts, so the last wave takes about a 1 / splits of a tile's time; the parts meet
// in split_k.cuh's fix-up.
//
// Why not stream-K (one even share of the tail's k-blocks per worker, Osama et al. PPoPP'23):
// measured on an H100 (bench/NOTES.md, "v16") it was slower than whole tiles wherever the last
// wave was over half full and gained less than this split where it was not. Its shares start at
// different k, so workers on neighbouring tiles no longer stream the same k-slices of A and B
// through L2 together; the parts of a tail split do (split j of every tail tile reads k-range j).
// Plain C++ (host and device); params.h makes the plan, scheduler.cuh hands out its units.
#pragma once

#if defined(__CUDACC__)
#define KILN_GEMM_HD __host__ __device__
#else
#define KILN_GEMM_HD
#endif

namespace kiln::gemm {

/// The split tail of a launch. tiles == 0: none, every tile runs whole.
struct TailSplit {
    int first = 0;   // first split tile, in the scheduler's order
    int tiles = 0;   // split tiles: first .. first + tiles - 1, the last of the launch
    int splits = 0;  // parts per split tile
};

/// Unit v of the tail (0 <= v < tiles * splits): part `split` of tail tile `tile` (0-based),
/// k-blocks [k_begin, k_end). The split index varies slowest, so the workers holding part j of
/// the tail tiles are neighbours and read the same k-range together.
struct TailUnit {
    int tile, split, k_begin, k_end;
};

KILN_GEMM_HD constexpr TailUnit tail_split_unit(const TailSplit& s, int v, int k_blocks) {
    const int split = v / s.tiles;
    return {v - split * s.tiles, split, k_blocks * split / s.splits,
            k_blocks * (split + 1) / s.splits};
}

}  // namespace kiln::gemm
