#include "passes/alloc_smem.h"

#include "passes/add_ref.h"
#include "passes/happens_before.h"
#include "passes/tensor_access.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace kiln::passes {

using event::Op;
using event::OpKind;

namespace {

struct SmemTensor {
    const Op* alloc = nullptr;
    int64_t bytes = 0; // all instances, all stages
    int64_t align = 128;
    std::vector<const Op*> accesses; // textual order
    std::vector<const Op*> writes;
    const std::string& name() const { return alloc->alloc.name; }
};

struct Plan {
    std::vector<int64_t> offsets;
    int64_t footprint = 0;
};

using Graph = std::vector<std::vector<char>>; // symmetric adjacency

int64_t align_up(int64_t n, int64_t a) {
    return (n + a - 1) / a * a;
}

bool swizzled(const event::TensorDecl& t) {
    using mapping::Layout;
    return t.layout && (*t.layout == Layout::Swizzle32 || *t.layout == Layout::Swizzle64 ||
                        *t.layout == Layout::Swizzle128);
}

int64_t instances(const Op& alloc, const HappensBefore& hb) {
    int64_t n = 1;
    for (const auto& d : alloc.over)
        n *= d.extent;
    for (const Op* loop : hb.loops_around(alloc))
        if (loop->kind == OpKind::PFor && loop->loop.level > ir::Level::Block)
            for (int64_t e : loop->loop.extents)
                n *= e;
    return n;
}

SmemTensor describe(const Op& alloc, const TensorAccess& access, const HappensBefore& hb) {
    SmemTensor t;
    t.alloc = &alloc;
    t.bytes = alloc.alloc.bytes() * instances(alloc, hb);
    t.align = swizzled(alloc.alloc) ? 1024 : 128;
    t.accesses = access.accesses(alloc.alloc.name);
    for (const Op* op : t.accesses)
        if (access.use(*op).writes.count(alloc.alloc.name))
            t.writes.push_back(op);
    return t;
}

// The loops around both allocations: each of their iterations has its own instance of both.
std::vector<const Op*> shared_loops(const SmemTensor& a, const SmemTensor& b,
                                    const HappensBefore& hb) {
    const auto& la = hb.loops_around(*a.alloc);
    const auto& lb = hb.loops_around(*b.alloc);
    std::vector<const Op*> common;
    for (std::size_t i = 0; i < la.size() && i < lb.size() && la[i] == lb[i]; ++i)
        common.push_back(la[i]);
    return common;
}

// Every access of `a` ends before every write of `b` starts, within one iteration of the loops
// around both allocations. An access pair inside a deeper common loop repeats per iteration of
// it and so cannot be ordered one way only.
bool ordered(const SmemTensor& a, const SmemTensor& b, const std::vector<const Op*>& loops,
             const HappensBefore& hb) {
    for (const Op* u : a.accesses)
        for (const Op* w : b.writes) {
            const Op* common = hb.common_loop(*u, *w);
            if (common && std::find(loops.begin(), loops.end(), common) == loops.end())
                return false;
            if (!hb.before(*u, *w))
                return false;
        }
    return true;
}

// Instances from different iterations of a loop around both are ordered only when the loop is
// sequential and every access ends its iteration.
bool iterations_ordered(const SmemTensor& a, const SmemTensor& b,
                        const std::vector<const Op*>& loops, const HappensBefore& hb) {
    for (const Op* loop : loops) {
        if (loop->kind != OpKind::For)
            continue; // pfor iterations have instances of their own
        if (loop->loop.controls.pipeline > 1)
            return false;
        for (const auto* t : {&a, &b})
            for (const Op* op : t->accesses)
                if (!hb.ends_iteration(*op, *loop))
                    return false;
    }
    return true;
}

bool interfere(const SmemTensor& a, const SmemTensor& b, const HappensBefore& hb) {
    auto loops = shared_loops(a, b, hb);
    if (!iterations_ordered(a, b, loops, hb))
        return true;
    return !ordered(a, b, loops, hb) && !ordered(b, a, loops, hb);
}

bool overlap(int64_t a, int64_t a_size, int64_t b, int64_t b_size) {
    return a < b + b_size && b < a + a_size;
}

// First fit, largest tensors first: each tensor goes to the lowest aligned offset that overlaps
// no placed tensor it has an edge to.
Plan first_fit(const std::vector<SmemTensor>& ts, const Graph& edges) {
    std::vector<std::size_t> order(ts.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return ts[a].bytes > ts[b].bytes; });
    Plan plan{std::vector<int64_t>(ts.size(), -1), 0};
    for (std::size_t i : order) {
        std::vector<int64_t> candidates{0};
        for (std::size_t j = 0; j < ts.size(); ++j)
            if (edges[i][j] && plan.offsets[j] >= 0)
                candidates.push_back(align_up(plan.offsets[j] + ts[j].bytes, ts[i].align));
        std::sort(candidates.begin(), candidates.end());
        for (int64_t c : candidates) {
            bool free = true;
            for (std::size_t j = 0; j < ts.size() && free; ++j)
                free = !(edges[i][j] && plan.offsets[j] >= 0 &&
                         overlap(c, ts[i].bytes, plan.offsets[j], ts[j].bytes));
            if (free) {
                plan.offsets[i] = c;
                break;
            }
        }
        plan.footprint = std::max(plan.footprint, plan.offsets[i] + ts[i].bytes);
    }
    return plan;
}

// Knight et al.: from the complete graph, drop the auxiliary edge whose removal gives the
// smallest plan until the plan fits. Returns nullopt when even the interference graph alone
// does not fit; `best` then holds that plan.
std::optional<Plan> plan_within(const std::vector<SmemTensor>& ts, const Graph& interference,
                                int64_t limit, Plan& best) {
    Graph edges(ts.size(), std::vector<char>(ts.size(), 1));
    best = first_fit(ts, edges);
    while (best.footprint > limit) {
        std::optional<std::pair<std::size_t, std::size_t>> drop;
        for (std::size_t i = 0; i < ts.size(); ++i)
            for (std::size_t j = i + 1; j < ts.size(); ++j) {
                if (interference[i][j] || !edges[i][j])
                    continue;
                edges[i][j] = edges[j][i] = 0;
                Plan p = first_fit(ts, edges);
                edges[i][j] = edges[j][i] = 1;
                if (!drop || p.footprint < best.footprint) {
                    drop = {i, j};
                    best = p;
                }
            }
        if (!drop)
            return std::nullopt;
        edges[drop->first][drop->second] = edges[drop->second][drop->first] = 0;
    }
    return best;
}

std::string named(const event::TensorDecl& t) {
    return t.origin.empty() ? t.name : t.name + " (origin " + t.origin + ")";
}

std::string stages(int64_t n) {
    return std::to_string(n) + (n == 1 ? " stage" : " stages");
}

std::string lifetime(const SmemTensor& t) {
    if (t.accesses.empty())
        return "unused";
    return "%" + t.accesses.front()->result + "..%" + t.accesses.back()->result;
}

// The bytes a block may use: the pfor's smem_limit, unless the machine has less.
struct Limit {
    int64_t bytes;
    std::string source;
};

Limit limit_of(const Op& pfor, const mapping::Machine& machine) {
    int64_t asked = pfor.loop.controls.smem_limit;
    if (asked > 0 && asked <= machine.smem_bytes)
        return {asked, "smem_limit"};
    return {machine.smem_bytes, "the machine's shared memory"};
}

Diagnostic overflow(const Op& pfor, const std::vector<SmemTensor>& ts, const Plan& best,
                    const Limit& limit) {
    int64_t total = 0;
    for (const auto& t : ts)
        total += t.bytes;
    std::string msg = "shared memory of pfor %" + pfor.result +
                      " does not fit: the smallest plan needs " + std::to_string(best.footprint) +
                      " bytes, the limit is " + std::to_string(limit.bytes) + " bytes (" +
                      limit.source + "); SHARED tensors (" + std::to_string(total) +
                      " bytes in all):";
    for (const auto& t : ts)
        msg += "\n  " + named(t.alloc->alloc) + ": " + std::to_string(t.bytes) + " bytes, " +
               stages(t.alloc->alloc.stages) + ", live " + lifetime(t);
    return Diagnostic{pfor.loc, msg};
}

// Accesses of `t` that no other access of `t` precedes (first) or follows (last).
std::vector<const Op*> extreme(const std::vector<const Op*>& ops, const std::vector<const Op*>& all,
                               bool first, const HappensBefore& hb) {
    std::vector<const Op*> out;
    for (const Op* op : ops) {
        bool dominated = std::any_of(all.begin(), all.end(), [&](const Op* x) {
            return first ? hb.before(*x, *op) : hb.before(*op, *x);
        });
        if (!dominated)
            out.push_back(op);
    }
    return out;
}

// The first writers of `later` wait for the last accessors of `earlier`.
void order_reuse(const SmemTensor& earlier, const SmemTensor& later, int64_t distance,
                 const HappensBefore& hb, std::vector<PendingRef>& refs) {
    for (const Op* w : extreme(later.writes, later.accesses, true, hb))
        for (const Op* u : extreme(earlier.accesses, earlier.accesses, false, hb))
            refs.push_back({w, &hb.visible_event(*u, *w), distance, {}});
}

// The WAR dependences that make the aliasing of two tensors safe.
void order_aliased(const SmemTensor& a, const SmemTensor& b, const HappensBefore& hb,
                   std::vector<PendingRef>& refs) {
    if (a.accesses.empty() || b.accesses.empty())
        return;
    auto loops = shared_loops(a, b, hb);
    const SmemTensor& first = ordered(a, b, loops, hb) ? a : b;
    const SmemTensor& second = &first == &a ? b : a;
    order_reuse(first, second, 0, hb, refs);
    // The next iteration's `first` reuses the bytes `second` held in this one.
    auto innermost = std::find_if(loops.rbegin(), loops.rend(),
                                  [](const Op* l) { return l->kind == OpKind::For; });
    if (innermost != loops.rend() && innermost == loops.rbegin())
        order_reuse(second, first, 1, hb, refs);
}

struct BlockPlan {
    std::vector<std::pair<const Op*, int64_t>> offsets;
    std::vector<PendingRef> refs;
};

Result<BlockPlan> plan_block(const Op& pfor, const TensorAccess& access, const HappensBefore& hb,
                             const PassContext& ctx, const std::set<std::string>& in_registers) {
    std::vector<SmemTensor> ts;
    event::walk(pfor.loop.body, [&](const Op& op) {
        if (op.kind == OpKind::Alloc && op.alloc.memory == ir::Memory::Shared &&
            !in_registers.count(op.alloc.name))
            ts.push_back(describe(op, access, hb));
    });
    Graph interference(ts.size(), std::vector<char>(ts.size(), 0));
    for (std::size_t i = 0; i < ts.size(); ++i)
        for (std::size_t j = i + 1; j < ts.size(); ++j)
            interference[i][j] = interference[j][i] = interfere(ts[i], ts[j], hb);
    Limit limit = limit_of(pfor, ctx.machine);
    Plan best;
    auto plan = plan_within(ts, interference, limit.bytes, best);
    if (!plan)
        return overflow(pfor, ts, best, limit);
    BlockPlan out;
    for (std::size_t i = 0; i < ts.size(); ++i) {
        out.offsets.push_back({ts[i].alloc, plan->offsets[i]});
        for (std::size_t j = i + 1; j < ts.size(); ++j)
            if (overlap(plan->offsets[i], ts[i].bytes, plan->offsets[j], ts[j].bytes))
                order_aliased(ts[i], ts[j], hb, out.refs);
    }
    return out;
}

std::string describe_op(const Op& op) {
    std::string s = "%" + op.result;
    return op.note.empty() ? s : s + " (" + op.note + ")";
}

// Copy elimination must leave no NONE tensor in use: it has no storage to read or write.
std::vector<Diagnostic> unmaterialized(const event::EventProgram& program,
                                       const TensorAccess& access) {
    std::vector<Diagnostic> out;
    event::walk(program.body, [&](const Op& op) {
        if (op.kind != OpKind::Alloc || op.alloc.memory != ir::Memory::None)
            return;
        const auto& users = access.accesses(op.alloc.name);
        if (!users.empty())
            out.push_back({users.front()->loc,
                           "tensor " + named(op.alloc) + " is mapped to NONE but " +
                               describe_op(*users.front()) +
                               " still uses it: map it to a memory so it can be materialized"});
    });
    return out;
}

std::vector<Diagnostic> shared_outside_blocks(const event::EventProgram& program,
                                              const HappensBefore& hb) {
    std::vector<Diagnostic> out;
    event::walk(program.body, [&](const Op& op) {
        if (op.kind != OpKind::Alloc || op.alloc.memory != ir::Memory::Shared)
            return;
        const auto& loops = hb.loops_around(op);
        bool in_block = std::any_of(loops.begin(), loops.end(), [](const Op* l) {
            return l->kind == OpKind::PFor && l->loop.level == ir::Level::Block;
        });
        if (!in_block)
            out.push_back({op.loc, "SHARED tensor " + op.alloc.name +
                                       " is not inside a BLOCK pfor: shared memory belongs to "
                                       "a block"});
    });
    return out;
}

} // namespace

Result<event::EventProgram> alloc_smem(event::EventProgram program, const PassContext& ctx) {
    TensorAccess access(program);
    HappensBefore hb(program.body);
    std::vector<Diagnostic> errors = unmaterialized(program, access);
    auto outside = shared_outside_blocks(program, hb);
    errors.insert(errors.end(), outside.begin(), outside.end());
    std::vector<BlockPlan> plans;
    const auto in_registers =
        ctx.shared_in_registers ? ctx.shared_in_registers(program) : std::set<std::string>{};
    event::walk(program.body, [&](const Op& op) {
        if (op.kind != OpKind::PFor || op.loop.level != ir::Level::Block)
            return;
        auto plan = plan_block(op, access, hb, ctx, in_registers);
        if (plan)
            plans.push_back(std::move(plan).value());
        else
            errors.insert(errors.end(), plan.errors().begin(), plan.errors().end());
    });
    if (!errors.empty())
        return errors;
    // The plans point into `program`; the edits change fields only, never a block.
    std::map<const Op*, int64_t> offsets;
    std::vector<PendingRef> refs;
    for (const auto& plan : plans) {
        offsets.insert(plan.offsets.begin(), plan.offsets.end());
        refs.insert(refs.end(), plan.refs.begin(), plan.refs.end());
    }
    event::walk(program.body, [&](Op& op) {
        if (auto it = offsets.find(&op); it != offsets.end())
            op.alloc.offset = it->second;
    });
    add_refs(program.body, refs);
    return program;
}

} // namespace kiln::passes
