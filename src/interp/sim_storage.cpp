#include "interp/sim_storage.h"

#include <cstdint>

namespace kiln::interp::sim {
namespace {

// Every element costs the simulator 24 bytes (value, writer, completion step).
constexpr int64_t kMaxElements = int64_t(1) << 26;
constexpr int64_t kMaxSharedBytes = int64_t(1) << 24;

int64_t as_key(const void* p) {
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(p));
}

std::shared_ptr<const std::vector<int64_t>> offsets_of(const View& v) {
    return std::make_shared<const std::vector<int64_t>>(v.element_offsets());
}

std::string what_op(const event::Op& user) {
    return user.result.empty() ? std::string(event::spelling(user.kind)) : "%" + user.result;
}

} // namespace

std::size_t KeyHash::operator()(const std::vector<int64_t>& k) const {
    uint64_t h = 1469598103934665603ull;
    for (int64_t v : k)
        h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<std::size_t>(h);
}

Storage::Storage(const EventTable& table,
                 std::map<std::string, std::shared_ptr<HostTensor>>& params,
                 const SimOptions& options, ViewCache& views)
    : table_(table), params_(params), options_(options), views_(views) {}

Resolved Storage::resolve(const event::View& v, const Ctx& c, const event::Op& user) {
    return resolve_keyed(v, c, user).r;
}

Storage::Keyed Storage::resolve_keyed(const event::View& v, const Ctx& c, const event::Op& user) {
    auto [decl, scope] = table_.find_decl(c, v.name, user.loc);
    if (decl->kind == event::OpKind::Alloc) {
        if (!v.whole())
            fail_at(user.loc,
                    what_op(user) + " indexes tensor " + v.name + "; only a partition has pieces");
        Buffer& b = buffer(*decl, scope, c, user);
        Keyed k{{b.whole, &b, nullptr}, {as_key(decl)}};
        auto it = views_.entries.find(k.key);
        if (it == views_.entries.end())
            it =
                views_.entries.emplace(k.key, ViewCache::Entry{b.whole, offsets_of(b.whole)}).first;
        k.r.offsets = it->second.offsets;
        return k;
    }
    const event::Partition& part = decl->part;
    if (v.whole())
        fail_at(user.loc, what_op(user) + " names partition " + v.name + " without a piece index");
    Keyed k = resolve_keyed(part.source, c, user);
    ir::Shape index;
    for (const auto& e : v.index)
        index.push_back(table_.eval(c, e, user.loc));
    k.key.push_back(as_key(decl));
    k.key.insert(k.key.end(), index.begin(), index.end());
    auto it = views_.entries.find(k.key);
    if (it == views_.entries.end()) {
        // The shape is recomputed from the source view, so hand-built IR need not carry it.
        auto shape = ir::partition_shape(part.spec, k.r.view.shape(), v.name, user.loc);
        if (!shape)
            throw DiagnosticError(shape.errors().front());
        auto piece = k.r.view.piece(part.spec, *shape, index, user.loc);
        if (!piece)
            fail_at(user.loc,
                    what_op(user) + ": " + v.name + ": " + piece.errors().front().message);
        it = views_.entries.emplace(k.key, ViewCache::Entry{*piece, offsets_of(*piece)}).first;
    }
    k.r.view = it->second.view.on(k.r.buffer->data);
    k.r.offsets = it->second.offsets;
    return k;
}

Buffer& Storage::buffer(const event::Op& alloc, const Scope* declared_in, const Ctx& c,
                        const event::Op& user) {
    const event::TensorDecl& decl = alloc.alloc;
    if (options_.reject_none && decl.memory == ir::Memory::None)
        fail_at(user.loc, what_op(user) + " touches " + decl.name +
                              ", a memory NONE tensor (copy elimination must remove its uses)");
    // A for body's alloc is the same storage in every iteration: its owner is the nearest scope
    // that is not a for iteration.
    const Scope* owner = declared_in;
    while (owner->kind == ScopeKind::ForIteration)
        owner = owner->parent;
    int64_t point = 0;
    for (const auto& d : alloc.over) {
        int64_t v = 0;
        if (!table_.lookup(c, d.var, v))
            fail_at(user.loc, what_op(user) + " uses " + decl.name + " over " + d.var +
                                  ", which it does not run over");
        if (v < 0 || v >= d.extent)
            fail_at(user.loc, what_op(user) + " uses " + decl.name + " at " + d.var + " = " +
                                  std::to_string(v) + ", outside its extent " +
                                  std::to_string(d.extent));
        point = point * d.extent + v;
    }
    int64_t stage = 0;
    if (decl.stages > 1) {
        if (!table_.lookup(c, decl.stage_var, stage))
            fail_at(user.loc, what_op(user) + " uses staged " + decl.name +
                                  " outside the loop over " + decl.stage_var);
        stage %= decl.stages;
    }
    std::vector<int64_t> key{as_key(owner), as_key(&alloc), point, stage};
    auto it = buffers_.find(key);
    if (it == buffers_.end()) {
        it = buffers_.emplace(std::move(key), make_buffer(decl, user)).first;
        if (decl.memory == ir::Memory::Shared && decl.offset >= 0)
            place_in_arena(*it->second, alloc, declared_in, point, stage);
    }
    return *it->second;
}

void Storage::place_in_arena(Buffer& b, const event::Op& alloc, const Scope* declared_in,
                             int64_t point, int64_t stage) {
    std::vector<const Scope*> inner; // pfor iterations between the block and the alloc
    const Scope* s = declared_in;
    for (; s; s = s->parent) {
        if (s->kind != ScopeKind::PForIteration)
            continue;
        if (s->loop->op->loop.level == ir::Level::Block)
            break;
        inner.push_back(s);
    }
    if (!s)
        return;
    const event::Op& block = *s->loop->op;
    auto known = aliasing_.find(&block);
    if (known == aliasing_.end())
        known = aliasing_.emplace(&block, has_aliasing(block)).first;
    if (!known->second)
        return;
    int64_t instance = 0;
    for (auto it = inner.rbegin(); it != inner.rend(); ++it)
        instance = instance * (*it)->loop->iterations + (*it)->iteration;
    instance = instance * point_count(alloc.over) + point;
    const event::TensorDecl& decl = alloc.alloc;
    b.address = decl.offset + instance * decl.bytes() + stage * (decl.bytes() / decl.stages);
    if (b.address + decl.bytes() > kMaxSharedBytes)
        fail_at(alloc.loc, decl.name + " lies at byte " + std::to_string(b.address) +
                               ", beyond any block's shared memory");
    auto& arena = arenas_[s];
    if (!arena)
        arena = std::make_unique<Arena>();
    b.arena = arena.get();
}

std::unique_ptr<Buffer> Storage::make_buffer(const event::TensorDecl& decl, const event::Op& user) {
    if (element_count(decl.shape) > kMaxElements)
        fail_at(user.loc, decl.name + " has " + std::to_string(element_count(decl.shape)) +
                              " elements; the simulator holds at most " +
                              std::to_string(kMaxElements) + " per buffer");
    auto b = std::make_unique<Buffer>();
    b->decl = &decl;
    if (decl.param) {
        auto it = params_.find(decl.name);
        if (it == params_.end() || !it->second)
            fail_at(user.loc, "no tensor given for entry parameter " + decl.name);
        const HostTensor& t = *it->second;
        if (t.dtype != decl.dtype || t.shape != decl.shape || t.size() != element_count(t.shape))
            fail_at(user.loc, "entry parameter " + decl.name + " expects " +
                                  std::string(ir::spelling(decl.dtype)) +
                                  ir::shape_string(decl.shape) + ", the tensor given is " +
                                  std::string(ir::spelling(t.dtype)) + ir::shape_string(t.shape));
        b->data = it->second;
    } else {
        b->data = std::make_shared<HostTensor>(HostTensor::poison(decl.dtype, decl.shape));
    }
    b->whole = View::whole(b->data);
    b->state.resize(b->data->size());
    return b;
}

std::vector<std::vector<int64_t>> Storage::mirrored_coords(const Resolved& r, const Ctx& c,
                                                           const event::Op& user) {
    const View& v = r.view;
    std::vector<std::vector<int64_t>> coords(v.shape().size());
    std::vector<int> dims(v.shape().size());
    for (std::size_t d = 0; d < coords.size(); ++d) {
        dims[d] = v.root_dim(d);
        for (int64_t i = 0; i < v.shape()[d]; ++i)
            coords[d].push_back(v.root_coord(d, i));
    }
    // Follow the chain, bounded by the number of buffers (a cycle would be a malformed program).
    const event::TensorDecl* decl = r.buffer->decl;
    for (std::size_t hops = 0; decl->mirrors && hops <= buffers_.size(); ++hops) {
        const Keyed m = resolve_keyed(*decl->mirrors, c, user);
        if (m.r.view.shape() != decl->shape)
            fail_at(user.loc, decl->name + " mirrors a view of shape " +
                                  ir::shape_string(m.r.view.shape()) + ", it has shape " +
                                  ir::shape_string(decl->shape));
        for (std::size_t d = 0; d < coords.size(); ++d) {
            for (int64_t& x : coords[d])
                x = x < 0 ? -1 : m.r.view.root_coord(dims[d], x);
            dims[d] = m.r.view.root_dim(dims[d]);
        }
        decl = m.r.buffer->decl;
    }
    return coords;
}

} // namespace kiln::interp::sim
