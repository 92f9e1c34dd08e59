#include "search.h"

#include "liveness.h"
#include "normalize.h"
#include "validate.h"

#include <chrono>
#include <fmt/format.h>

namespace kiln::schedule {

namespace {

double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string families_text(const std::vector<Family> &fs) {
    if (fs.empty())
        return "schedule length and II alone";
    std::string s;
    for (Family f : fs)
        s += (s.empty() ? "" : ", ") + std::string(family_name(f));
    return s;
}

// Checks that refute every II at once, with a precise message instead of a long search.
Expected<bool> static_checks(const LoopGraph &g, const Machine &m, const JointOptions &jo) {
    const std::string src = g.name.empty() ? "graph" : g.name;
    bool vl_warp = has_variable_latency_warp(g, m, jo);
    int general = warps_used_by(m, jo) - (vl_warp ? 1 : 0);
    if (vl_warp && general < 1)
        return Error{fmt::format("{}: unsatisfiable (variable-latency warp): machine '{}' has {} "
                                 "warp(s), and variable-latency ops need one of their own",
                                 src, m.name, m.warps)};
    for (int v = 0; v < static_cast<int>(g.ops.size()); ++v) {
        const Op &op = g.ops[v];
        bool has_users = false;
        for (const auto &e : g.edges)
            has_users |= e.from == v;
        if (vl_warp && op.variable_latency && op.warps > 1)
            return Error{fmt::format("{}: unsatisfiable (variable-latency warp): op '{}' needs {} "
                                     "warps but variable-latency ops share one warp",
                                     src, op.name, op.warps)};
        if (jo.warp_specialize && !op.variable_latency && op.warps > general)
            return Error{fmt::format("{}: unsatisfiable (variable-latency warp): op '{}' needs {} "
                                     "warps, {} remain beside the variable-latency warp",
                                     src, op.name, op.warps, general)};
        if (has_users && op.regs > m.register_limit)
            return Error{fmt::format("{}: unsatisfiable ({}): op '{}' defines a value of {} "
                                     "registers, a warp holds at most {}",
                                     src, family_name(Family::registers), op.name, op.regs,
                                     m.register_limit)};
        for (const auto &[mem, amount] : op.memory)
            if (has_users && amount > m.memories.at(mem))
                return Error{fmt::format("{}: unsatisfiable ({}): op '{}' needs {} of '{}', "
                                         "capacity {}",
                                         src, family_name(Family::memory), op.name, amount, mem,
                                         m.memories.at(mem))};
    }
    return true;
}

Schedule make_schedule(const LoopGraph &g, const Machine &m, const SearchOptions &opts, int64_t ii,
                       int64_t len, const JointResult &jr) {
    Schedule s;
    s.graph = g.name;
    s.machine = m.name;
    s.ii = ii;
    s.length = len;
    for (const auto &op : g.ops)
        s.ops.push_back(op.name);
    s.start = jr.start;
    s.warps = jr.warps;
    s.num_warps = warps_used_by(m, opts.joint);
    s.warp_specialized = opts.joint.warp_specialize;
    s.variable_latency_warp = has_variable_latency_warp(g, m, opts.joint);
    s.encoding = opts.joint.encoding == Encoding::lia ? "lia" : "boolean";
    auto life = lifetimes(g, ii, s.start);
    for (int w = 0; w < s.num_warps; ++w) {
        std::vector<int64_t> weight(g.ops.size(), 0);
        for (size_t v = 0; v < g.ops.size(); ++v)
            for (int x : s.warps[v])
                if (x == w)
                    weight[v] = g.ops[v].regs;
        auto use = steady_usage(life, ii, weight);
        s.warp_register_peak.push_back(use.empty() ? 0 : *std::max_element(use.begin(), use.end()));
    }
    return s;
}

} // namespace

Expected<SearchResult> find_schedule(const LoopGraph &input, const Machine &m,
                                     const SearchOptions &opts) {
    auto t_start = std::chrono::steady_clock::now();
    const std::string src = input.name.empty() ? "graph" : input.name;
    auto log = [&](const std::string &line) {
        if (opts.log)
            opts.log(line);
    };
    auto on_machine = check_graph_on_machine(input, m, src);
    if (!on_machine)
        return Error{on_machine.error()};
    auto structural = check_loop_graph(input, src);
    if (!structural)
        return Error{structural.error()};

    SearchResult out;
    Schedule report;
    auto t0 = std::chrono::steady_clock::now();
    if (opts.normalize) {
        auto norm = normalize_graph(input, opts.cost_budget, opts.mip);
        if (!norm)
            return Error{norm.error()};
        out.normalized = norm->graph;
        report.cost_map = norm->map.cost;
        report.ratio_error = norm->map.max_ratio_error;
    } else {
        out.normalized = input;
    }
    report.normalize_s = since(t0);
    const LoopGraph &g = out.normalized;
    {
        std::string costs;
        for (auto [a, b] : report.cost_map)
            if (a)
                costs += fmt::format(" {}->{}", a, b);
        log(fmt::format("normalize: {:.3f}s, costs{} (max ratio error {})", report.normalize_s,
                        costs.empty() ? " unchanged" : costs, report.ratio_error));
    }
    auto checked = static_checks(g, m, opts.joint);
    if (!checked)
        return Error{checked.error()};

    report.mii = compute_mii(g, m);
    log(fmt::format("MII = {} (resource {}{}, recurrence {})", report.mii.mii(),
                    report.mii.resource,
                    report.mii.resource_unit.empty() ? "" : " on " + report.mii.resource_unit,
                    report.mii.recurrence));
    int64_t max_ii = opts.max_ii;
    if (max_ii <= 0) {
        // One iteration run serially on one warp, every transfer paid: nothing needs more.
        max_ii = 1;
        for (const auto &op : g.ops)
            max_ii += op.cycles() + op.spill_cost;
        for (const auto &e : g.edges)
            max_ii += e.latency;
        max_ii = std::max(max_ii, report.mii.mii());
    }

    std::vector<Attempt> attempts;
    std::vector<Family> last_core;
    int64_t last_ii = 0, last_len = 0;
    bool first_modulo = true;
    for (int64_t ii = report.mii.mii(); ii <= max_ii; ++ii) {
        ModuloResult mr = solve_modulo(g, m, ii, opts.mip);
        report.modulo_s += mr.seconds;
        if (mr.status == ModuloStatus::time_limit)
            return Error{fmt::format("{}: the modulo-scheduling ILP hit the time limit ({} s) at "
                                     "II={}",
                                     src, opts.mip.time_limit_s, ii)};
        attempts.push_back({"ilp", ii, mr.schedule.length,
                            mr.status == ModuloStatus::found ? "found" : "infeasible", mr.seconds});
        log(fmt::format("II={}: ILP {} in {:.3f}s{}", ii,
                        mr.status == ModuloStatus::found ? "found" : "infeasible", mr.seconds,
                        mr.status == ModuloStatus::found
                            ? fmt::format(", Len(M)={}", mr.schedule.length)
                            : ""));
        if (mr.status != ModuloStatus::found)
            continue;
        if (first_modulo) {
            report.modulo_ii = ii;
            report.modulo_length = mr.schedule.length;
            first_modulo = false;
        }
        const int64_t len0 = mr.schedule.length;
        const int64_t band = (len0 + ii - 1) / ii + opts.extra_stages;
        for (int64_t len = len0; (len + ii - 1) / ii <= band; ++len) {
            JointResult jr = solve_joint(g, m, ii, len, opts.joint);
            report.joint_s += jr.seconds;
            std::string outcome = jr.status == JointStatus::sat ? "sat"
                                  : jr.status == JointStatus::unsat
                                      ? "unsat: " + families_text(jr.core)
                                      : "time limit";
            attempts.push_back({"smt", ii, len, outcome, jr.seconds});
            log(fmt::format("II={} L={} copies={}: SMT {} in {:.3f}s ({} vars, {} assertions)", ii,
                            len, (len + ii - 1) / ii, outcome, jr.seconds, jr.variables,
                            jr.assertions));
            if (jr.status == JointStatus::unknown)
                return Error{fmt::format("{}: the joint SMT query hit the time limit ({} s) at "
                                         "II={} L={}; no proven-optimal schedule",
                                         src, opts.joint.time_limit_s, ii, len)};
            if (jr.status == JointStatus::unsat) {
                last_core = jr.core;
                last_ii = ii;
                last_len = len;
                continue;
            }
            Schedule s = make_schedule(g, m, opts, ii, len, jr);
            s.mii = report.mii;
            s.modulo_ii = report.modulo_ii;
            s.modulo_length = report.modulo_length;
            s.cost_map = report.cost_map;
            s.ratio_error = report.ratio_error;
            s.normalize_s = report.normalize_s;
            s.modulo_s = report.modulo_s;
            s.joint_s = report.joint_s;
            s.attempts = attempts;
            s.optimal = true;
            // The validator shares no code with the encoding: a failure here is a bug in it.
            auto bad = validate_schedule(g, m, s);
            if (!bad.empty())
                return Error{fmt::format("{}: internal error: the SMT schedule at II={} L={} "
                                         "fails validation: {}",
                                         src, ii, len, bad.front())};
            s.total_s = since(t_start);
            out.schedule = std::move(s);
            return out;
        }
    }
    if (last_ii == 0)
        return Error{fmt::format("{}: no modulo schedule exists for any II up to {}", src, max_ii)};
    return Error{fmt::format("{}: unsatisfiable for every II from {} to {}; binding constraint "
                             "families (minimal unsat core at II={} L={}): {}",
                             src, report.mii.mii(), max_ii, last_ii, last_len,
                             families_text(last_core))};
}

} // namespace kiln::schedule
