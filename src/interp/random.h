#pragma once
// Seeded, platform-independent random fills: splitmix64 and our own integer-to-double mapping, so
// the same seed gives the same tensors with every compiler and standard library.
#include "interp/host_tensor.h"

#include <cstdint>
#include <string_view>

namespace kiln::interp {

class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    uint64_t next();
    // Uniform in [lo, hi).
    double uniform(double lo, double hi);
    // Uniform integer in [lo, hi].
    int64_t integer(int64_t lo, int64_t hi);

private:
    uint64_t state_;
};

// A seed for one named tensor, so adding a tensor does not change the others' values.
uint64_t tensor_seed(uint64_t seed, std::string_view name);

// Every element uniform in [lo, hi), then rounded to the tensor's dtype.
void fill_uniform(HostTensor& t, uint64_t seed, double lo, double hi);
// Every element a uniform integer in [lo, hi] (exact in every dtype for small ranges).
void fill_integers(HostTensor& t, uint64_t seed, int64_t lo, int64_t hi);

} // namespace kiln::interp
