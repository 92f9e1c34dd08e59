#include "validate.h"

#include "liveness.h"

#include <algorithm>
#include <fmt/format.h>
#include <set>

namespace kiln::schedule {

namespace {

bool shares_warp(const std::vector<int> &a, const std::vector<int> &b) {
    for (int x : a)
        if (std::find(b.begin(), b.end(), x) != b.end())
            return true;
    return false;
}

bool crosses(const std::vector<int> &from, const std::vector<int> &to) {
    for (int w : to)
        if (std::find(from.begin(), from.end(), w) == from.end())
            return true;
    return false;
}

} // namespace

std::vector<std::string> validate_schedule(const LoopGraph &g, const Machine &m,
                                           const Schedule &s) {
    std::vector<std::string> bad;
    const int n = static_cast<int>(g.ops.size());
    if (s.ii < 1)
        return {fmt::format("II must be at least 1, got {}", s.ii)};
    if (static_cast<int>(s.start.size()) != n || static_cast<int>(s.warps.size()) != n)
        return {fmt::format("schedule places {} ops, the graph has {}", s.start.size(), n)};
    const int64_t ii = s.ii;

    // Placement: inside [0, L), on existing warps, as many as the op needs.
    for (int v = 0; v < n; ++v) {
        const Op &op = g.ops[v];
        if (v < static_cast<int>(s.ops.size()) && s.ops[v] != op.name)
            bad.push_back(fmt::format("op {} is '{}' in the schedule but '{}' in the graph", v,
                                      s.ops[v], op.name));
        if (s.start[v] < 0 || s.start[v] + op.cycles() > s.length)
            bad.push_back(fmt::format("op '{}' runs [{}, {}), outside the schedule length {}",
                                      op.name, s.start[v], s.start[v] + op.cycles(), s.length));
        std::set<int> distinct(s.warps[v].begin(), s.warps[v].end());
        int want = s.warp_specialized ? std::min(op.warps, s.num_warps) : 1;
        if (static_cast<int>(distinct.size()) != want || distinct.size() != s.warps[v].size())
            bad.push_back(fmt::format("op '{}' is on {} distinct warps, needs {}", op.name,
                                      distinct.size(), want));
        for (int w : s.warps[v])
            if (w < 0 || w >= s.num_warps)
                bad.push_back(
                    fmt::format("op '{}' is on warp {}, which does not exist", op.name, w));
        if (s.variable_latency_warp) {
            bool on_vl = distinct.count(0) > 0;
            if (op.variable_latency && !on_vl)
                bad.push_back(fmt::format("variable-latency op '{}' is not on warp 0", op.name));
            if (!op.variable_latency && on_vl)
                bad.push_back(fmt::format("op '{}' shares the variable-latency warp 0", op.name));
        }
    }
    if (!bad.empty())
        return bad;

    // Dependences in the loop: iteration k+distance of `to` after iteration k of `from`.
    for (size_t k = 0; k < g.edges.size(); ++k) {
        const Edge &e = g.edges[k];
        int64_t need = e.latency;
        if (s.warp_specialized && crosses(s.warps[e.from], s.warps[e.to]) && e.from != e.to)
            need += g.ops[e.from].spill_cost;
        int64_t got = s.start[e.to] + e.distance * ii - s.start[e.from];
        if (got < need)
            bad.push_back(fmt::format("edge {} ({} -> {}, distance {}): consumer issues {} "
                                      "cycles after the producer, needs {}",
                                      k, g.ops[e.from].name, g.ops[e.to].name, e.distance, got,
                                      need));
    }

    // Units: every cycle an op occupies lands on slot (start + c) mod II.
    for (const auto &[unit, cap] : m.units) {
        std::vector<int64_t> use(ii, 0);
        for (int v = 0; v < n; ++v)
            for (int64_t c = 0; c < g.ops[v].occupancy(unit); ++c)
                use[(s.start[v] + c) % ii] += 1;
        for (int64_t r = 0; r < ii; ++r)
            if (use[r] > cap)
                bad.push_back(fmt::format("unit '{}' runs {} ops at slot {}, capacity {}", unit,
                                          use[r], r, cap));
    }

    // Memories and registers from lifetimes.
    auto life = lifetimes(g, ii, s.start);
    for (const auto &[mem, cap] : m.memories) {
        std::vector<int64_t> weight(n, 0);
        for (int v = 0; v < n; ++v)
            if (auto it = g.ops[v].memory.find(mem); it != g.ops[v].memory.end())
                weight[v] = it->second;
        auto use = steady_usage(life, ii, weight);
        for (int64_t r = 0; r < ii; ++r)
            if (use[r] > cap)
                bad.push_back(fmt::format("memory '{}' holds {} at slot {}, capacity {}", mem,
                                          use[r], r, cap));
    }
    std::vector<int64_t> regs(n);
    for (int v = 0; v < n; ++v)
        regs[v] = g.ops[v].regs;
    if (m.register_file > 0) {
        auto use = steady_usage(life, ii, regs);
        for (int64_t r = 0; r < ii; ++r)
            if (use[r] > m.register_file)
                bad.push_back(fmt::format("register file holds {} at slot {}, capacity {}", use[r],
                                          r, m.register_file));
    }
    for (int w = 0; w < s.num_warps; ++w) {
        std::vector<int64_t> weight(n, 0);
        for (int v = 0; v < n; ++v)
            if (std::find(s.warps[v].begin(), s.warps[v].end(), w) != s.warps[v].end())
                weight[v] = regs[v];
        auto use = steady_usage(life, ii, weight);
        for (int64_t r = 0; r < ii; ++r)
            if (use[r] > m.register_limit)
                bad.push_back(fmt::format("warp {} holds {} registers at slot {}, limit {}", w,
                                          use[r], r, m.register_limit));
    }

    // Blocking: when a blocking op issues, nothing else on its warp may be in flight.
    for (int v = 0; v < n; ++v) {
        bool blocking = false;
        for (const auto &e : g.edges)
            if (e.to == v && (e.blocking || (s.warp_specialized && e.from != e.to &&
                                             crosses(s.warps[e.from], s.warps[v]))))
                blocking = true;
        if (!blocking)
            continue;
        for (int o = 0; o < n; ++o) {
            if (o == v || !shares_warp(s.warps[v], s.warps[o]))
                continue;
            // o (any iteration) in flight at v's issue: (start_v - start_o) mod II < cycles(o).
            int64_t since = ((s.start[v] - s.start[o]) % ii + ii) % ii;
            if (g.ops[o].cycles() > 0 && (since < g.ops[o].cycles() || g.ops[o].cycles() >= ii))
                bad.push_back(fmt::format("blocking op '{}' issues at slot {} while '{}' is in "
                                          "flight on the same warp",
                                          g.ops[v].name, s.start[v] % ii, g.ops[o].name));
        }
    }
    return bad;
}

} // namespace kiln::schedule
