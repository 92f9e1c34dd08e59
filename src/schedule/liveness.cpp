#include "liveness.h"

namespace kiln::schedule {

std::vector<Lifetime> lifetimes(const LoopGraph &g, int64_t ii, const std::vector<int64_t> &start) {
    std::vector<Lifetime> out(g.ops.size());
    for (size_t v = 0; v < g.ops.size(); ++v)
        out[v] = {start[v], start[v]};
    for (const auto &e : g.edges) {
        int64_t use = start[e.to] + e.distance * ii;
        if (use > out[e.from].end)
            out[e.from].end = use;
    }
    return out;
}

std::vector<int64_t> steady_usage(const std::vector<Lifetime> &life, int64_t ii,
                                  const std::vector<int64_t> &weight) {
    std::vector<int64_t> use(ii, 0);
    for (size_t v = 0; v < life.size(); ++v)
        if (weight[v] != 0)
            for (int64_t t = life[v].begin; t < life[v].end; ++t)
                use[t % ii] += weight[v];
    return use;
}

} // namespace kiln::schedule
