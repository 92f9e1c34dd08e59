#include "joint_smt.h"

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <map>
#include <optional>
#include <z3++.h>

namespace kiln::schedule {

const char *family_name(Family f) {
    switch (f) {
    case Family::dependence:
        return "dependence";
    case Family::capacity:
        return "functional-unit capacity";
    case Family::memory:
        return "memory capacity";
    case Family::registers:
        return "per-warp register limit";
    case Family::variable_latency:
        return "variable-latency warp";
    case Family::cross_warp:
        return "cross-warp transfer delay";
    case Family::concurrency:
        return "blocking-synchronization concurrency";
    }
    return "?";
}

std::vector<Family> all_families() {
    return {Family::dependence,       Family::capacity,   Family::memory,     Family::registers,
            Family::variable_latency, Family::cross_warp, Family::concurrency};
}

int warps_used_by(const Machine &m, const JointOptions &opts) {
    return opts.warp_specialize ? m.warps : 1;
}

bool has_variable_latency_warp(const LoopGraph &g, const Machine &m, const JointOptions &opts) {
    if (!opts.warp_specialize || !m.variable_latency_warp)
        return false;
    return std::any_of(g.ops.begin(), g.ops.end(), [](const Op &o) { return o.variable_latency; });
}

namespace {

int64_t mod(int64_t a, int64_t b) {
    return ((a % b) + b) % b;
}

class Builder {
public:
    Builder(z3::context &c, const LoopGraph &g, const Machine &m, int64_t ii, int64_t len,
            const JointOptions &o)
        : c_(c), g_(g), m_(m), ii_(ii), len_(len), opt_(o), n_(static_cast<int>(g.ops.size())),
          hard_(c) {
        warps_ = warps_used_by(m, o);
        vl_warp_ = has_variable_latency_warp(g, m, o);
        for (const auto &op : g.ops)
            last_.push_back(len - op.cycles());
    }

    // False when some op cannot complete within L at all (completion is unsatisfiable).
    bool fits() const {
        return std::all_of(last_.begin(), last_.end(), [](int64_t l) { return l >= 0; });
    }

    void build() {
        placement();
        warps();
        dependences();
        capacity();
        liveness_and_memory();
        concurrency();
    }

    z3::solver make_solver() {
        z3::solver s =
            opt_.encoding == Encoding::boolean ? z3::solver(c_, "QF_FD") : z3::solver(c_, "QF_LIA");
        z3::params p(c_);
        p.set("random_seed", 0u);
        if (opt_.time_limit_s > 0)
            p.set("timeout", static_cast<unsigned>(opt_.time_limit_s * 1000));
        s.set(p);
        for (const auto &h : hard_)
            s.add(h);
        for (auto &[fam, list] : tracked_) {
            z3::expr lit = c_.bool_const(fmt::format("family_{}", static_cast<int>(fam)).c_str());
            literal_.emplace(fam, lit);
            for (const auto &e : list)
                s.add(z3::implies(lit, e));
        }
        return s;
    }

    z3::expr_vector assumptions(const std::vector<Family> &on) const {
        z3::expr_vector v(c_);
        for (Family f : on)
            if (auto it = literal_.find(f); it != literal_.end())
                v.push_back(it->second);
        return v;
    }

    std::vector<Family> families_present() const {
        std::vector<Family> out;
        for (const auto &[fam, list] : tracked_)
            out.push_back(fam);
        return out;
    }

    Family family_of(const z3::expr &lit) const {
        for (const auto &[fam, l] : literal_)
            if (z3::eq(l, lit))
                return fam;
        return Family::dependence;
    }

    void extract(const z3::model &mdl, JointResult &out) const {
        out.start.assign(n_, 0);
        out.warps.assign(n_, {});
        for (int v = 0; v < n_; ++v) {
            for (int64_t t = 0; t <= last_[v]; ++t)
                if (mdl.eval(at(v, t), true).is_true())
                    out.start[v] = t;
            for (int w = 0; w < warps_; ++w)
                if (mdl.eval(opw_[v][w], true).is_true())
                    out.warps[v].push_back(w);
        }
    }

    int variables = 0;
    int assertions() const {
        size_t k = hard_.size();
        for (const auto &[f, l] : tracked_)
            k += l.size();
        return static_cast<int>(k);
    }

private:
    z3::expr fresh(const std::string &name) {
        ++variables;
        return c_.bool_const(name.c_str());
    }
    void add(Family f, const z3::expr &e) {
        if (std::find(opt_.relaxed.begin(), opt_.relaxed.end(), f) == opt_.relaxed.end())
            tracked_[f].push_back(e);
    }
    void define(const z3::expr &e) { hard_.push_back(e); }

    // op[v, t]: v issues t cycles after its iteration starts (copy 0 of Q).
    z3::expr at(int v, int64_t t) const {
        if (t < 0 || t > last_[v])
            return c_.bool_val(false);
        if (opt_.encoding == Encoding::boolean)
            return x_[v][t];
        return start_[v] == c_.int_val(t);
    }
    // v has issued at or before t.
    z3::expr started(int v, int64_t t) const {
        if (t < 0)
            return c_.bool_val(false);
        if (t >= last_[v])
            return c_.bool_val(true);
        if (opt_.encoding == Encoding::boolean)
            return started_[v][t];
        return start_[v] <= c_.int_val(t);
    }
    // v issues in steady-state slot r (its start is r mod II).
    z3::expr slot(int v, int64_t r) const { return slot_[v][r]; }
    // v is in flight (issued within the last cycles(v) cycles) at steady-state slot r.
    z3::expr in_flight(int v, int64_t r) const {
        int64_t cyc = g_.ops[v].cycles();
        if (cyc >= ii_)
            return c_.bool_val(true);
        z3::expr_vector any(c_);
        for (int64_t k = 0; k < cyc; ++k)
            any.push_back(slot(v, mod(r - k, ii_)));
        return any.empty() ? c_.bool_val(false) : z3::mk_or(any);
    }

    void at_most(Family f, const std::vector<std::pair<z3::expr, int64_t>> &terms, int64_t bound) {
        if (terms.empty())
            return;
        int64_t total = 0;
        for (const auto &[e, w] : terms)
            total += w;
        if (total <= bound)
            return; // cannot be violated: keep the query small
        if (opt_.encoding == Encoding::boolean) {
            z3::expr_vector es(c_);
            std::vector<int> ws;
            for (const auto &[e, w] : terms) {
                es.push_back(e);
                ws.push_back(static_cast<int>(w));
            }
            add(f, z3::pble(es, ws.data(), static_cast<int>(bound)));
        } else {
            z3::expr_vector es(c_);
            for (const auto &[e, w] : terms)
                es.push_back(z3::ite(e, c_.int_val(w), c_.int_val(0)));
            add(f, z3::sum(es) <= c_.int_val(bound));
        }
    }

    void placement() {
        for (int v = 0; v < n_; ++v) {
            const std::string &nm = g_.ops[v].name;
            slot_.emplace_back();
            if (opt_.encoding == Encoding::boolean) {
                x_.emplace_back();
                started_.emplace_back();
                z3::expr_vector one(c_);
                for (int64_t t = 0; t <= last_[v]; ++t) {
                    x_[v].push_back(fresh(fmt::format("op[{},{}]", nm, t)));
                    one.push_back(x_[v][t]);
                }
                define(z3::atmost(one, 1)); // uniqueness
                define(z3::atleast(one, 1));
                for (int64_t t = 0; t < last_[v]; ++t) {
                    started_[v].push_back(fresh(fmt::format("started[{},{}]", nm, t)));
                    define(started_[v][t] ==
                           (t == 0 ? x_[v][0] : (started_[v][t - 1] || x_[v][t])));
                }
                for (int64_t r = 0; r < ii_; ++r) {
                    z3::expr_vector any(c_);
                    for (int64_t t = r; t <= last_[v]; t += ii_)
                        any.push_back(x_[v][t]);
                    slot_[v].push_back(any.empty() ? c_.bool_val(false) : z3::mk_or(any));
                }
            } else {
                start_.push_back(c_.int_const(fmt::format("start[{}]", nm).c_str()));
                z3::expr stage = c_.int_const(fmt::format("stage[{}]", nm).c_str());
                z3::expr row = c_.int_const(fmt::format("slot[{}]", nm).c_str());
                variables += 3;
                define(start_[v] >= 0 && start_[v] <= c_.int_val(last_[v]));
                define(row >= 0 && row < c_.int_val(ii_) && stage >= 0);
                define(start_[v] == stage * c_.int_val(ii_) + row);
                for (int64_t r = 0; r < ii_; ++r)
                    slot_[v].push_back(row == c_.int_val(r));
            }
        }
    }

    void warps() {
        int first_general = vl_warp_ ? 1 : 0;
        for (int v = 0; v < n_; ++v) {
            const Op &op = g_.ops[v];
            opw_.emplace_back();
            z3::expr_vector all(c_);
            for (int w = 0; w < warps_; ++w) {
                if (warps_ == 1)
                    opw_[v].push_back(c_.bool_val(true));
                else
                    opw_[v].push_back(fresh(fmt::format("opw[{},{}]", op.name, w)));
                all.push_back(opw_[v][w]);
            }
            if (warps_ == 1)
                continue;
            int width = std::min(op.warps, warps_);
            define(z3::atmost(all, width)); // warp uniqueness (width warps for wide ops)
            define(z3::atleast(all, width));
            if (vl_warp_)
                add(Family::variable_latency, op.variable_latency ? opw_[v][0] : !opw_[v][0]);
            // Symmetry breaking: general warps are interchangeable, so number them in order
            // of first use. Sound for wide ops too: a new op's fresh warps are consecutive.
            for (int w = first_general + 1; w < warps_; ++w) {
                z3::expr_vector prev(c_);
                for (int u = 0; u <= v; ++u)
                    prev.push_back(opw_[u][w - 1]);
                define(z3::implies(opw_[v][w], z3::mk_or(prev)));
            }
        }
        // cross[u,v]: some warp of v is not a warp of u, so u's result crosses warps.
        for (const auto &e : g_.edges) {
            if (warps_ == 1 || e.from == e.to) {
                cross_.push_back(c_.bool_val(false));
                continue;
            }
            z3::expr_vector any(c_);
            for (int w = 0; w < warps_; ++w)
                any.push_back(opw_[e.to][w] && !opw_[e.from][w]);
            cross_.push_back(z3::mk_or(any));
        }
    }

    void dependences() {
        for (size_t k = 0; k < g_.edges.size(); ++k) {
            const Edge &e = g_.edges[k];
            int64_t need = e.latency - ii_ * e.distance; // s_v - s_u >= need
            int64_t spill = g_.ops[e.from].spill_cost;
            if (opt_.encoding == Encoding::lia) {
                add(Family::dependence, start_[e.to] - start_[e.from] >= c_.int_val(need));
                if (spill > 0 && warps_ > 1)
                    add(Family::cross_warp, z3::implies(cross_[k], start_[e.to] - start_[e.from] >=
                                                                       c_.int_val(need + spill)));
                continue;
            }
            // u at t forbids v at or before t + need - 1.
            for (int64_t t = 0; t <= last_[e.from]; ++t) {
                if (t + need - 1 >= 0)
                    add(Family::dependence,
                        z3::implies(x_[e.from][t], !started(e.to, t + need - 1)));
                if (spill > 0 && warps_ > 1 && t + need + spill - 1 >= 0)
                    add(Family::cross_warp, z3::implies(x_[e.from][t] && cross_[k],
                                                        !started(e.to, t + need + spill - 1)));
            }
        }
    }

    void capacity() {
        for (const auto &[unit, cap] : m_.units)
            for (int64_t r = 0; r < ii_; ++r) {
                std::vector<std::pair<z3::expr, int64_t>> terms;
                for (int v = 0; v < n_; ++v) {
                    std::map<int64_t, int64_t> cover; // slot -> times covered
                    for (int64_t k = 0; k < g_.ops[v].occupancy(unit); ++k)
                        cover[mod(r - k, ii_)] += 1;
                    for (auto [s, times] : cover)
                        terms.push_back({slot(v, s), times});
                }
                at_most(Family::capacity, terms, cap);
            }
    }

    // live[v, t] <=> v issued at or before t and some consumer (u, distance) issues after t,
    // i.e. at s_u + distance*II > t. This is the closed form of the paper's backward liveness
    // propagation (Init, LiveProp-1/2, DeadProp-1/2) on one iteration's timeline.
    void liveness_and_memory() {
        std::vector<std::vector<z3::expr>> live(n_);
        for (int v = 0; v < n_; ++v) {
            int64_t horizon = 0;
            for (const auto &e : g_.edges)
                if (e.from == v)
                    horizon = std::max(horizon, last_[e.to] + e.distance * ii_);
            for (int64_t t = 0; t < horizon; ++t) {
                z3::expr_vector later(c_);
                for (const auto &e : g_.edges)
                    if (e.from == v)
                        later.push_back(!started(e.to, t - e.distance * ii_));
                z3::expr l = fresh(fmt::format("live[{},{}]", g_.ops[v].name, t));
                define(l == (started(v, t) && z3::mk_or(later)));
                live[v].push_back(l);
            }
        }
        // Every copy that overlaps slot r: times r, r + II, r + 2*II, ... of one iteration.
        auto overlapping = [&](int v, int64_t r) {
            std::vector<z3::expr> out;
            for (int64_t t = r; t < static_cast<int64_t>(live[v].size()); t += ii_)
                out.push_back(live[v][t]);
            return out;
        };
        for (const auto &[mem, cap] : m_.memories)
            for (int64_t r = 0; r < ii_; ++r) {
                std::vector<std::pair<z3::expr, int64_t>> terms;
                for (int v = 0; v < n_; ++v)
                    if (auto it = g_.ops[v].memory.find(mem); it != g_.ops[v].memory.end())
                        for (const auto &l : overlapping(v, r))
                            terms.push_back({l, it->second});
                at_most(Family::memory, terms, cap);
            }
        for (int64_t r = 0; r < ii_; ++r) {
            if (m_.register_file > 0) {
                std::vector<std::pair<z3::expr, int64_t>> terms;
                for (int v = 0; v < n_; ++v)
                    for (const auto &l : overlapping(v, r))
                        if (g_.ops[v].regs > 0)
                            terms.push_back({l, g_.ops[v].regs});
                at_most(Family::memory, terms, m_.register_file);
            }
            for (int w = 0; w < warps_; ++w) {
                std::vector<std::pair<z3::expr, int64_t>> terms;
                for (int v = 0; v < n_; ++v)
                    for (const auto &l : overlapping(v, r))
                        if (g_.ops[v].regs > 0)
                            terms.push_back({warps_ == 1 ? l : (l && opw_[v][w]), g_.ops[v].regs});
                at_most(Family::registers, terms, m_.register_limit);
            }
        }
    }

    void concurrency() {
        for (int v = 0; v < n_; ++v) {
            z3::expr_vector why(c_);
            for (size_t k = 0; k < g_.edges.size(); ++k) {
                const Edge &e = g_.edges[k];
                if (e.to != v)
                    continue;
                if (e.blocking)
                    why.push_back(c_.bool_val(true));
                else if (warps_ > 1 && e.from != e.to)
                    why.push_back(cross_[k]); // a cross-warp transfer waits on a barrier too
            }
            if (why.empty())
                continue;
            z3::expr blocking = z3::mk_or(why).simplify();
            for (int o = 0; o < n_; ++o) {
                if (o == v || g_.ops[o].cycles() == 0)
                    continue;
                z3::expr_vector shared(c_);
                for (int w = 0; w < warps_; ++w)
                    shared.push_back(opw_[v][w] && opw_[o][w]);
                z3::expr same = z3::mk_or(shared);
                for (int64_t r = 0; r < ii_; ++r)
                    add(Family::concurrency, !(slot(v, r) && blocking && same && in_flight(o, r)));
            }
        }
    }

    z3::context &c_;
    const LoopGraph &g_;
    const Machine &m_;
    int64_t ii_, len_;
    JointOptions opt_;
    int n_;
    int warps_ = 1;
    bool vl_warp_ = false;
    std::vector<int64_t> last_;
    std::vector<std::vector<z3::expr>> x_, started_, slot_, opw_;
    std::vector<z3::expr> start_, cross_;
    z3::expr_vector hard_;
    std::map<Family, std::vector<z3::expr>> tracked_;
    std::map<Family, z3::expr> literal_;
};

} // namespace

JointResult solve_joint(const LoopGraph &g, const Machine &m, int64_t ii, int64_t length,
                        const JointOptions &opts) {
    auto t0 = std::chrono::steady_clock::now();
    JointResult out;
    auto done = [&](JointStatus st) {
        out.status = st;
        out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return out;
    };
    z3::context ctx;
    if (opts.threads > 1) {
        z3::set_param("parallel.enable", true);
        z3::set_param("parallel.threads.max", opts.threads);
    }
    Builder b(ctx, g, m, ii, length, opts);
    if (!b.fits())
        return done(JointStatus::unsat);
    b.build();
    out.variables = b.variables;
    out.assertions = b.assertions();
    z3::solver s = b.make_solver();
    auto present = b.families_present();
    z3::check_result r = s.check(b.assumptions(present));
    if (r == z3::sat) {
        b.extract(s.get_model(), out);
        return done(JointStatus::sat);
    }
    if (r == z3::unknown)
        return done(JointStatus::unknown);
    z3::expr_vector core = s.unsat_core();
    for (unsigned i = 0; i < core.size(); ++i)
        out.core.push_back(b.family_of(core[i]));
    std::sort(out.core.begin(), out.core.end());
    // Deletion-based minimization: drop each family that the rest still refutes. The basic
    // modulo-scheduling families go first so the answer keeps the warp-specialization reasons.
    std::vector<Family> order = out.core;
    std::vector<Family> kept = out.core;
    for (Family f : order) {
        std::vector<Family> without;
        for (Family k : kept)
            if (k != f)
                without.push_back(k);
        if (s.check(b.assumptions(without)) == z3::unsat)
            kept = without;
    }
    out.core = kept;
    return done(JointStatus::unsat);
}

} // namespace kiln::schedule
