// kiln::gemm tiling API (GemmKernels §3): tiles with named dimensions, a thread-dependent base
// and a thread-independent offset, and the four operations projection, parallelisation,
// translation and linearisation. Sizes are template parameters, so every loop over subtiles
// unrolls and every offset folds into an immediate (the paper's zero-cost requirement).
//
//   using Block = Tile<Dim<'M', 128>, Dim<'N', 128>, Dim<'K', 16>>;
//   Block blk{};                                   // base = offset = 0
//   auto a = blk.project<'M', 'K'>();              // Tile<Dim<'M',128>, Dim<'K',16>>
//   parallelise<Tile<Dim<'M',4>, Dim<'K',1>>>(a, threadIdx.x, 256, [&](auto sub) {
//       auto g = sub.translate({m0, k0});           // move to the block's place in A
//       ptrdiff_t i = g.linearise_base({lda, 1});   // row-major: M stride lda, K stride 1
//   });
#pragma once
#include <cstddef>

namespace kiln::gemm {

template <char Name, int Size>
struct Dim {
    static constexpr char name = Name;
    static constexpr int size = Size;
};

template <class... Ds>
struct Tile {
    static constexpr int rank = sizeof...(Ds);
    static constexpr char names[rank] = {Ds::name...};
    static constexpr int sizes[rank] = {Ds::size...};
    static constexpr int elements = (Ds::size * ... * 1);

    int base[rank] = {};    // thread-dependent part of the position
    int offset[rank] = {};  // thread-independent part (compile-time after unrolling)

    /// Size of dimension i (usable with run-time i in device code, unlike the static array).
    __host__ __device__ static constexpr int size_at(int i) {
        constexpr int s[rank] = {Ds::size...};
        return s[i];
    }

    template <char N>
    __host__ __device__ static constexpr int index() {
        constexpr char n[rank] = {Ds::name...};
        for (int i = 0; i < rank; ++i)
            if (n[i] == N) return i;
        return -1;
    }
    template <char N>
    __host__ __device__ static constexpr int size() {
        static_assert(index<N>() >= 0, "tile has no dimension of that name");
        return size_at(index<N>());
    }
    /// Position along dimension N (base + offset).
    template <char N>
    __host__ __device__ constexpr int at() const {
        static_assert(index<N>() >= 0, "tile has no dimension of that name");
        return base[index<N>()] + offset[index<N>()];
    }

    /// Projection: keep only the named dimensions, in the order given.
    template <char... Keep>
    __host__ __device__ constexpr auto project() const {
        Tile<Dim<Keep, size<Keep>()>...> t;
        constexpr int src[] = {index<Keep>()...};
        for (int i = 0; i < int(sizeof...(Keep)); ++i) {
            t.base[i] = base[src[i]];
            t.offset[i] = offset[src[i]];
        }
        return t;
    }

    /// Translation: move the base by `dist` (one entry per dimension, in order).
    __host__ __device__ constexpr Tile translate(const int (&dist)[rank]) const {
        Tile t = *this;
        for (int i = 0; i < rank; ++i) t.base[i] += dist[i];
        return t;
    }

    /// Linearisation of the base / offset given per-dimension strides (elements).
    __host__ __device__ constexpr ptrdiff_t linearise_base(const ptrdiff_t (&stride)[rank]) const {
        ptrdiff_t r = 0;
        for (int i = 0; i < rank; ++i) r += ptrdiff_t(base[i]) * stride[i];
        return r;
    }
    __host__ __device__ constexpr ptrdiff_t
    linearise_offset(const ptrdiff_t (&stride)[rank]) const {
        ptrdiff_t r = 0;
        for (int i = 0; i < rank; ++i) r += ptrdiff_t(offset[i]) * stride[i];
        return r;
    }
    __host__ __device__ constexpr ptrdiff_t linearise(const ptrdiff_t (&stride)[rank]) const {
        return linearise_base(stride) + linearise_offset(stride);
    }
};

/// Parallelisation: split `tile` into subtiles of shape Sub (same dimension names, in order)
/// and hand subtile idx, idx + count, idx + 2*count, ... to `f`. The first dimension varies
/// fastest. The subtile's base holds the entity-dependent position; its offset the part that
/// depends only on the iteration, so addresses split into register + immediate.
template <class Sub, class T, class F>
__host__ __device__ inline void parallelise(const T& tile, int idx, int count, F&& f) {
    static_assert(Sub::rank == T::rank, "subtile must have the tile's dimensions");
    constexpr int R = T::rank;
    constexpr int n_sub = T::elements / Sub::elements;
    int per[R];
    for (int i = 0; i < R; ++i) per[i] = T::size_at(i) / Sub::size_at(i);
    auto coords = [&](int lin, int (&c)[R]) {
        for (int i = 0; i < R; ++i) {
            c[i] = (lin % per[i]) * Sub::size_at(i);
            lin /= per[i];
        }
    };
    int b[R];
    coords(idx, b);
#pragma unroll
    for (int it = 0; it < (n_sub + count - 1) / count; ++it) {
        int lin = idx + it * count;
        if (lin >= n_sub) break;
        int c[R];
        coords(lin, c);
        Sub s;
        for (int i = 0; i < R; ++i) {
            s.base[i] = tile.base[i] + tile.offset[i] + b[i];
            s.offset[i] = c[i] - b[i];
        }
        f(s);
    }
}

}  // namespace kiln::gemm
