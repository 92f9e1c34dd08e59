#include "passes/copy_elim_index.h"

#include <algorithm>
#include <functional>

namespace kiln::passes {

using event::Block;
using event::Op;
using event::OpKind;
using event::View;

namespace {

std::string spec_key(const ir::PartitionSpec& s) {
    if (s.is_mma)
        return "mma(" + std::string(ir::spelling(s.mma.role)) + "," +
               std::string(ir::spelling(s.mma.level)) + "," + std::to_string(s.mma.n) + ")";
    std::string k = "blocks(";
    for (const auto& t : s.blocks.tile)
        k += (t ? std::to_string(*t) : "_") + ",";
    return k + (s.blocks.remainder == ir::Remainder::Pad ? "pad)" : ")");
}

} // namespace

bool same_dims(const std::vector<event::ProcDim>& a, const std::vector<event::ProcDim>& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto& x, const auto& y) {
        return x.var == y.var && x.level == y.level && x.extent == y.extent;
    });
}

bool is_assign_copy(const Op& op) {
    return op.kind == OpKind::Copy && op.mode == event::CopyMode::Assign;
}

CopyElimIndex::CopyElimIndex(event::EventProgram& program)
    : program_(program), access_(program), order_(program.body) {
    std::vector<Op*> loops;
    index_block(program.body, loops);
}

void CopyElimIndex::index_block(Block& b, std::vector<Op*>& loops) {
    for (auto& op : b.ops) {
        position_[&op] = sites_.size();
        sites_.push_back({&op, &b, int(sites_.size()), 0, loops});
        std::size_t mine = sites_.size() - 1;
        if (op.kind == OpKind::Alloc)
            allocs_[op.alloc.name] = &op;
        if (op.kind == OpKind::Part)
            parts_[op.part.name] = &op;
        if (!op.result.empty())
            defs_[op.result] = &op;
        if (is_loop(op)) {
            loops.push_back(&op);
            index_block(op.loop.body, loops);
            loops.pop_back();
        }
        sites_[mine].end = int(sites_.size()) - 1;
    }
}

Op* CopyElimIndex::alloc_of(const std::string& tensor) const {
    auto it = allocs_.find(tensor);
    return it == allocs_.end() ? nullptr : it->second;
}

Op* CopyElimIndex::part_of(const std::string& partition) const {
    auto it = parts_.find(partition);
    return it == parts_.end() ? nullptr : it->second;
}

Op* CopyElimIndex::definition(const std::string& event_id) const {
    auto it = defs_.find(event_id);
    return it == defs_.end() ? nullptr : it->second;
}

std::vector<const event::Partition*> CopyElimIndex::chain_of(const View& v) const {
    std::vector<const event::Partition*> chain;
    const View* at = &v;
    while (const Op* p = part_of(at->name)) {
        chain.push_back(&p->part);
        at = &p->part.source;
        if (chain.size() > parts_.size()) // a cycle: only malformed input has one
            break;
    }
    return chain;
}

std::string CopyElimIndex::root_of(const View& v) const {
    return access_.tensor_of(v);
}

std::string CopyElimIndex::key_of(const View& v) const {
    std::string key;
    if (const Op* p = part_of(v.name))
        key = spec_key(p->part.spec) + "{" + key_of(p->part.source) + "}";
    else
        key = v.name;
    if (!v.whole()) {
        key += "[";
        for (const auto& e : v.index)
            key += ir::to_string(e) + ",";
        key += "]";
    }
    return key;
}

ir::Shape CopyElimIndex::shape_of(const View& v) const {
    if (const Op* p = part_of(v.name))
        return p->part.shape.piece;
    const Op* a = alloc_of(v.name);
    return a ? a->alloc.shape : ir::Shape{};
}

bool CopyElimIndex::exact_pieces(const View& v) const {
    for (const auto* p : chain_of(v))
        if (!ir::partition_disjoint(p->spec) ||
            (!p->spec.is_mma && p->spec.blocks.remainder == ir::Remainder::Pad))
            return false;
    return true;
}

std::set<std::string> CopyElimIndex::names_in(const View& v) const {
    std::set<std::string> names{v.name};
    std::vector<std::string> vars;
    for (const auto& e : v.index)
        ir::collect_names(*e, vars);
    names.insert(vars.begin(), vars.end());
    if (const Op* p = part_of(v.name)) {
        auto inner = names_in(p->part.source);
        names.insert(inner.begin(), inner.end());
    }
    return names;
}

namespace {

void index_variables(const CopyElimIndex& ix, const View& v, std::set<std::string>& out) {
    std::vector<std::string> names;
    for (const auto& e : v.index)
        ir::collect_names(*e, names);
    out.insert(names.begin(), names.end());
    if (const Op* p = ix.part_of(v.name))
        index_variables(ix, p->part.source, out);
}

// Steps an odometer over `extents`; false once it wraps around.
bool next_point(ir::Shape& at, const ir::Shape& extents) {
    for (std::size_t d = at.size(); d-- > 0;) {
        if (++at[d] < extents[d])
            return true;
        at[d] = 0;
    }
    return false;
}

bool to_root(const std::vector<CopyElimIndex::PieceStep>& steps, const ir::Shape& coord,
             ir::Shape& out) {
    out = coord;
    for (const auto& s : steps) {
        ir::Shape up;
        if (!ir::piece_to_source(s.part->spec, s.source, s.index, out, up))
            return false;
        out = std::move(up);
    }
    return true;
}

// Points compared before giving up (and answering "not the same piece"): far above any
// register or shared-memory piece a thread, warp or warpgroup names.
constexpr int64_t kMaxComparedPoints = int64_t(1) << 22;

} // namespace

std::map<std::string, int64_t> CopyElimIndex::scope_of(const Op& op) const {
    std::map<std::string, int64_t> scope;
    for (const Op* loop : site(op).loops)
        for (std::size_t d = 0; d < loop->loop.vars.size() && d < loop->loop.extents.size(); ++d)
            scope[loop->loop.vars[d]] = loop->loop.extents[d];
    for (const auto& d : op.over)
        scope[d.var] = d.extent;
    return scope;
}

bool CopyElimIndex::resolve(const View& v, const std::map<std::string, int64_t>& env,
                            std::vector<PieceStep>& steps) const {
    const View* at = &v;
    while (const Op* p = part_of(at->name)) {
        const auto& part = p->part;
        if (at->index.size() != part.shape.grid.size() || steps.size() > parts_.size())
            return false;
        PieceStep step{&part, shape_of(part.source), {}};
        for (std::size_t d = 0; d < at->index.size(); ++d) {
            auto value = ir::evaluate_int(*at->index[d], [&](const std::string& n, ir::Value& out) {
                auto it = env.find(n);
                auto size = program_.sizes.find(n);
                if (it == env.end() && size == program_.sizes.end())
                    return false;
                out = ir::Value::of_int(it != env.end() ? it->second : size->second);
                return true;
            });
            if (!value || *value < 0 || *value >= part.shape.grid[d])
                return false;
            step.index.push_back(*value);
        }
        steps.push_back(std::move(step));
        at = &part.source;
    }
    return at->whole();
}

bool CopyElimIndex::same_elements(const View& a, const View& b,
                                  const std::map<std::string, int64_t>& scope) const {
    const ir::Shape piece = shape_of(a);
    if (root_of(a) != root_of(b) || piece != shape_of(b))
        return false;
    std::set<std::string> vars;
    index_variables(*this, a, vars);
    index_variables(*this, b, vars);
    std::vector<std::string> names;
    ir::Shape extents;
    int64_t points = 1;
    for (const auto& n : piece)
        points *= n;
    for (const auto& n : vars) {
        if (auto it = scope.find(n); it != scope.end()) {
            names.push_back(n);
            extents.push_back(it->second);
            points *= it->second;
        } else if (!program_.sizes.count(n)) {
            return false; // a variable whose range is unknown here
        }
    }
    if (points > kMaxComparedPoints || points <= 0)
        return false;
    ir::Shape value(names.size(), 0);
    do {
        std::map<std::string, int64_t> env;
        for (std::size_t i = 0; i < names.size(); ++i)
            env[names[i]] = value[i];
        std::vector<PieceStep> sa, sb;
        if (!resolve(a, env, sa) || !resolve(b, env, sb))
            return false;
        ir::Shape coord(piece.size(), 0), ea, eb;
        do {
            if (!to_root(sa, coord, ea) || !to_root(sb, coord, eb) || ea != eb)
                return false;
        } while (next_point(coord, piece));
    } while (next_point(value, extents));
    return true;
}

bool CopyElimIndex::same_piece(const View& a, const View& b, const Op& op) const {
    const std::string ka = key_of(a), kb = key_of(b);
    if (ka == kb)
        return true;
    const auto scope = scope_of(op);
    std::string key = ka + "|" + kb;
    for (const auto& [n, e] : scope)
        key += "|" + n + "=" + std::to_string(e);
    auto it = same_piece_cache_.find(key);
    if (it == same_piece_cache_.end())
        it = same_piece_cache_.emplace(key, same_elements(a, b, scope)).first;
    return it->second;
}

namespace {
const std::set<std::string> kNone;
bool accesses_directly(const Op& op) {
    return op.kind == OpKind::Copy || op.kind == OpKind::Call;
}
} // namespace

const std::set<std::string>& CopyElimIndex::reads(const Op& op) const {
    return accesses_directly(op) ? access_.use(op).reads : kNone;
}

const std::set<std::string>& CopyElimIndex::writes(const Op& op) const {
    return accesses_directly(op) ? access_.use(op).writes : kNone;
}

std::vector<Op*> CopyElimIndex::users_of(const std::string& name) const {
    std::vector<Op*> users;
    for (const auto& s : sites_) {
        const Op& op = *s.op;
        bool uses = false;
        if (op.kind == OpKind::Copy)
            uses = op.src.name == name || op.dst.name == name;
        if (op.kind == OpKind::Call)
            uses = std::any_of(op.args.begin(), op.args.end(),
                               [&](const View& v) { return v.name == name; });
        if (op.kind == OpKind::Part)
            uses = op.part.source.name == name;
        if (uses)
            users.push_back(s.op);
    }
    return users;
}

std::vector<Op*> CopyElimIndex::consumers_of(const std::string& event_id, bool* in_yield) const {
    std::vector<Op*> out;
    if (in_yield)
        *in_yield = false;
    std::function<void(const Block&)> check_yield = [&](const Block& b) {
        if (in_yield && b.yield && b.yield->id == event_id)
            *in_yield = true;
    };
    check_yield(program_.body);
    for (const auto& s : sites_) {
        if (std::any_of(s.op->after.begin(), s.op->after.end(),
                        [&](const event::EventRef& r) { return r.id == event_id; }))
            out.push_back(s.op);
        if (is_loop(*s.op))
            check_yield(s.op->loop.body);
    }
    return out;
}

bool CopyElimIndex::inside(const Op& site_op, const Block& block) const {
    if (&block == &program_.body)
        return true;
    const auto& loops = site(site_op).loops;
    return std::any_of(loops.begin(), loops.end(),
                       [&](const Op* l) { return &l->loop.body == &block; });
}

bool CopyElimIndex::visible_at(const event::View& v, const event::Op& x) const {
    const event::Op* decl = part_of(v.name) ? part_of(v.name) : alloc_of(v.name);
    return decl && site(*decl).order < site(x).order && inside(x, *site(*decl).block);
}

} // namespace kiln::passes
