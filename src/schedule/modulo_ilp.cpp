#include "modulo_ilp.h"

#include <chrono>
#include <cmath>
#include <map>

namespace kiln::schedule {

bool recurrences_allow(const LoopGraph &g, int64_t ii) {
    // Floyd–Warshall on longest paths; a positive diagonal entry is a positive cycle.
    const int n = static_cast<int>(g.ops.size());
    const int64_t none = INT64_MIN / 4;
    std::vector<std::vector<int64_t>> w(n, std::vector<int64_t>(n, none));
    for (const auto &e : g.edges)
        w[e.from][e.to] = std::max(w[e.from][e.to], e.latency - ii * e.distance);
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i) {
            if (w[i][k] == none)
                continue;
            for (int j = 0; j < n; ++j)
                if (w[k][j] != none)
                    w[i][j] = std::max(w[i][j], w[i][k] + w[k][j]);
        }
    for (int i = 0; i < n; ++i)
        if (w[i][i] > 0)
            return false;
    return true;
}

Mii compute_mii(const LoopGraph &g, const Machine &m) {
    Mii out;
    for (const auto &[unit, cap] : m.units) {
        int64_t total = 0;
        for (const auto &op : g.ops)
            total += op.occupancy(unit);
        int64_t bound = (total + cap - 1) / cap;
        if (bound > out.resource) {
            out.resource = bound;
            out.resource_unit = unit;
        }
    }
    // Recurrence: monotone in ii, so binary search between 1 and the sum of all delays + 1.
    int64_t hi = 1;
    for (const auto &e : g.edges)
        hi += e.latency;
    int64_t lo = 1;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (recurrences_allow(g, mid))
            hi = mid;
        else
            lo = mid + 1;
    }
    out.recurrence = lo;
    return out;
}

ModuloResult solve_modulo(const LoopGraph &g, const Machine &m, int64_t ii,
                          const MipOptions &opts) {
    auto t0 = std::chrono::steady_clock::now();
    ModuloResult out;
    auto finish = [&](ModuloStatus st) {
        out.status = st;
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    };
    if (!recurrences_allow(g, ii))
        return finish(ModuloStatus::infeasible);

    const int n = static_cast<int>(g.ops.size());
    // A horizon no optimal schedule needs to pass: every op after every delay, each waiting at
    // most a full II for a free slot.
    int64_t horizon = 0;
    for (const auto &op : g.ops)
        horizon += op.cycles() + ii;
    for (const auto &e : g.edges)
        horizon += e.latency;
    const int64_t max_stage = horizon / ii + 1;

    Mip mip;
    std::vector<std::vector<int>> slot(n, std::vector<int>(ii));
    std::vector<int> stage(n);
    for (int v = 0; v < n; ++v) {
        std::vector<std::pair<int, double>> one;
        for (int64_t r = 0; r < ii; ++r) {
            slot[v][r] = mip.add_var(0, 1, true, 0);
            one.push_back({slot[v][r], 1.0});
        }
        mip.add_row(one, 1, 1);
        stage[v] = mip.add_var(0, static_cast<double>(max_stage), true, 0);
    }
    const int len = mip.add_var(0, Mip::inf, false, 1.0);

    auto start_expr = [&](int v, double sign, std::map<int, double> &into) {
        into[stage[v]] += sign * static_cast<double>(ii);
        for (int64_t r = 1; r < ii; ++r)
            into[slot[v][r]] += sign * static_cast<double>(r);
    };
    auto as_row = [](const std::map<int, double> &m) {
        return std::vector<std::pair<int, double>>(m.begin(), m.end());
    };
    for (const auto &e : g.edges) {
        std::map<int, double> row;
        start_expr(e.to, 1.0, row);
        start_expr(e.from, -1.0, row);
        // A self edge reduces to 0 >= d - II*distance, which recurrences_allow already checked.
        if (e.from == e.to)
            continue;
        mip.add_row(as_row(row), static_cast<double>(e.latency - ii * e.distance), Mip::inf);
    }
    // Earliest starts along distance-0 paths (the graph's distance-0 part is acyclic): implied
    // by the dependence rows, but stated per op they tighten the LP relaxation considerably.
    std::vector<int64_t> asap(n, 0);
    for (int round = 0; round < n; ++round)
        for (const auto& e : g.edges)
            if (e.distance == 0)
                asap[e.to] = std::max(asap[e.to], asap[e.from] + e.latency);
    for (int v = 0; v < n; ++v)
        if (asap[v] > 0) {
            std::map<int, double> row;
            start_expr(v, 1.0, row);
            mip.add_row(as_row(row), static_cast<double>(asap[v]), Mip::inf);
        }
    for (int v = 0; v < n; ++v) {
        std::map<int, double> row;
        row[len] = 1.0;
        start_expr(v, -1.0, row);
        mip.add_row(as_row(row), static_cast<double>(g.ops[v].cycles()), Mip::inf);
    }
    for (const auto &[unit, cap] : m.units)
        for (int64_t r = 0; r < ii; ++r) {
            std::map<int, double> row;
            for (int v = 0; v < n; ++v) {
                int64_t occ = g.ops[v].occupancy(unit);
                // An op busy for occ cycles from slot s covers slots s, s+1, ... (mod II); one
                // longer than II covers a slot more than once.
                for (int64_t c = 0; c < occ; ++c)
                    row[slot[v][((r - c) % ii + ii) % ii]] += 1.0;
            }
            if (!row.empty())
                mip.add_row(as_row(row), -Mip::inf, static_cast<double>(cap));
        }

    MipStatus st = mip.solve(opts);
    if (st == MipStatus::infeasible)
        return finish(ModuloStatus::infeasible);
    if (st == MipStatus::time_limit)
        return finish(ModuloStatus::time_limit);
    out.schedule.ii = ii;
    out.schedule.start.resize(n);
    for (int v = 0; v < n; ++v) {
        int64_t r = 0;
        for (int64_t k = 0; k < ii; ++k)
            if (mip.value(slot[v][k]) > 0.5)
                r = k;
        out.schedule.start[v] = ii * static_cast<int64_t>(mip.value(stage[v])) + r;
        out.schedule.length =
            std::max(out.schedule.length, out.schedule.start[v] + g.ops[v].cycles());
    }
    return finish(ModuloStatus::found);
}

} // namespace kiln::schedule
