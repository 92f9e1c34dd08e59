#include "normalize.h"

#include <chrono>
#include <fmt/format.h>
#include <set>

namespace kiln::schedule {

namespace {

int64_t ratio_error(const std::vector<int64_t> &c, const std::vector<int64_t> &n) {
    int64_t f = 0;
    for (size_t i = 0; i < c.size(); ++i)
        for (size_t j = i + 1; j < c.size(); ++j)
            f = std::max<int64_t>(f, std::llabs(c[i] * n[j] - c[j] * n[i]));
    return f;
}

} // namespace

Expected<Normalization> normalize_costs(const std::vector<int64_t> &costs, int64_t budget,
                                        const MipOptions &opts) {
    auto start = std::chrono::steady_clock::now();
    std::set<int64_t> distinct_set;
    for (int64_t c : costs) {
        if (c < 0)
            return Error{fmt::format("cost normalization: negative cost {}", c)};
        if (c > 0)
            distinct_set.insert(c);
    }
    std::vector<int64_t> c(distinct_set.begin(), distinct_set.end());
    Normalization out;
    out.cost[0] = 0;
    if (c.empty())
        return out;
    const int64_t k = static_cast<int64_t>(c.size());
    if (k > budget)
        return Error{fmt::format("cost normalization: {} distinct costs cannot each get at least 1 "
                                 "within a total of {} (raise the cost budget)",
                                 k, budget)};

    // Phase 1: minimize F. Phase 2: minimize sum C' with F fixed.
    std::vector<int64_t> best(k);
    int64_t best_f = 0;
    for (int phase = 0; phase < 2; ++phase) {
        Mip mip;
        std::vector<int> v;
        for (int64_t i = 0; i < k; ++i)
            v.push_back(mip.add_var(1, static_cast<double>(budget), true, phase == 1 ? 1.0 : 0.0));
        int f = mip.add_var(0, phase == 1 ? static_cast<double>(best_f) : Mip::inf, true,
                            phase == 0 ? 1.0 : 0.0);
        for (int64_t i = 0; i < k; ++i)
            for (int64_t j = i + 1; j < k; ++j) {
                // C[i]*C'[j] - C[j]*C'[i] - F <= 0  and  ... + F >= 0
                std::vector<std::pair<int, double>> row = {{v[j], double(c[i])},
                                                           {v[i], -double(c[j])}};
                auto hi = row, lo = row;
                hi.push_back({f, -1.0});
                lo.push_back({f, 1.0});
                mip.add_row(hi, -Mip::inf, 0);
                mip.add_row(lo, 0, Mip::inf);
            }
        std::vector<std::pair<int, double>> sum;
        for (int x : v)
            sum.push_back({x, 1.0});
        mip.add_row(sum, 1, static_cast<double>(budget));
        MipStatus st = mip.solve(opts);
        if (st != MipStatus::optimal)
            return Error{fmt::format("cost normalization: CBC {} (phase {})",
                                     st == MipStatus::infeasible ? "found no solution"
                                                                 : "hit the time limit",
                                     phase + 1)};
        for (int64_t i = 0; i < k; ++i)
            best[i] = static_cast<int64_t>(mip.value(v[i]));
        // F is recomputed in exact integer arithmetic rather than trusted from the LP.
        best_f = ratio_error(c, best);
    }
    for (int64_t i = 0; i < k; ++i)
        out.cost[c[i]] = best[i];
    out.max_ratio_error = best_f;
    out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

Expected<NormalizedGraph> normalize_graph(const LoopGraph &g, int64_t budget,
                                          const MipOptions &opts) {
    LoopGraph h = g;
    for (int v = 0; v < static_cast<int>(h.ops.size()); ++v)
        if (g.is_streaming(v)) {
            h.ops[v].latency = 0;
            for (auto &e : h.edges)
                if (e.from == v)
                    e.latency = 0;
        }
    std::vector<int64_t> costs;
    for (const auto &op : h.ops) {
        costs.push_back(op.latency);
        costs.push_back(op.spill_cost);
        for (const auto &u : op.uses)
            costs.push_back(u.cycles);
    }
    for (const auto &e : h.edges)
        costs.push_back(e.latency);
    auto norm = normalize_costs(costs, budget, opts);
    if (!norm)
        return Error{(g.name.empty() ? std::string("graph") : g.name) + ": " + norm.error()};
    const auto &m = norm->cost;
    for (auto &op : h.ops) {
        op.latency = m.at(op.latency);
        op.spill_cost = m.at(op.spill_cost);
        for (auto &u : op.uses)
            u.cycles = m.at(u.cycles);
    }
    for (auto &e : h.edges)
        e.latency = m.at(e.latency);
    return NormalizedGraph{std::move(h), std::move(*norm)};
}

} // namespace kiln::schedule
