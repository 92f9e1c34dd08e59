// kiln::gemm split-K workspace — where the sm90 kernel's K splits leave their partial sums.
//
// Two device buffers: arrival counters, one per (CTA tile, consumer warpgroup), and fp32
// partials, a 64 x BN block per (CTA tile, split, consumer warpgroup). The counters must be zero
// before a launch; the last split to arrive at a tile resets its counter, so they are zero again
// after every launch that completes. Keep them in a buffer of their own: a region that held
// partials (or another problem's layout) is not zero. A pair of buffers serves one launch after
// another on one stream, never two launches at once.
// Plain C++: the host sizes and allocates them, the kernel receives them (split_k.cuh reduces).
#pragma once
#include <cstdint>

namespace kiln::gemm {

struct SplitK {
    int splits = 1;              // K splits per tile; 1: none, no buffers
    int* counters = nullptr;     // [cta tile][consumer], zero
    float* partials = nullptr;   // [cta tile][split][consumer][64 x BN fragment]
};

inline constexpr int kSplitKConsumers = 2;  // the most consumer warpgroups of the sm90 kernel

/// CTA tiles of an M x N x batch problem with bm x bn tiles in clusters of cluster_m along M
/// (a cluster's last CTA may lie past M: it still has a tile).
constexpr int64_t split_k_cta_tiles(int M, int N, int batch, int bm, int bn, int cluster_m) {
    const int64_t cluster_rows = (int64_t(M) + bm * cluster_m - 1) / (bm * cluster_m);
    return cluster_rows * cluster_m * ((int64_t(N) + bn - 1) / bn) * batch;
}

constexpr int64_t split_k_counter_bytes(int64_t cta_tiles) {
    return cta_tiles * kSplitKConsumers * 4;
}

constexpr int64_t split_k_partial_bytes(int64_t cta_tiles, int splits, int bm, int bn) {
    return cta_tiles * splits * int64_t(bm) * bn * 4;
}

}  // namespace kiln::gemm
