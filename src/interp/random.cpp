#include "interp/random.h"

namespace kiln::interp {

uint64_t Rng::next() {
    // splitmix64 (Steele, Lea, Flood 2014).
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double Rng::uniform(double lo, double hi) {
    // The top 53 bits give a double in [0, 1) exactly.
    double u = static_cast<double>(next() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
}

int64_t Rng::integer(int64_t lo, int64_t hi) {
    auto span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(next() % span);
}

uint64_t tensor_seed(uint64_t seed, std::string_view name) {
    // FNV-1a over the name, mixed with the seed.
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : name)
        h = (h ^ c) * 0x100000001b3ull;
    Rng mix(seed ^ h);
    return mix.next();
}

void fill_uniform(HostTensor& t, uint64_t seed, double lo, double hi) {
    Rng rng(seed);
    for (int64_t i = 0; i < t.size(); ++i)
        t.store(i, rng.uniform(lo, hi));
}

void fill_integers(HostTensor& t, uint64_t seed, int64_t lo, int64_t hi) {
    Rng rng(seed);
    for (int64_t i = 0; i < t.size(); ++i)
        t.store(i, static_cast<double>(rng.integer(lo, hi)));
}

} // namespace kiln::interp
