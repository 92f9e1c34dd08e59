#include "interp/sim_ops.h"

#include "interp/leaf_eval.h"
#include "ir/leaf_ops.h"

#include <cmath>
#include <limits>

namespace kiln::interp::sim {
namespace {

constexpr std::size_t kMaxRaces = 100;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

std::string view_text(const event::View& v) {
    std::string s = v.name;
    if (!v.whole()) {
        s += "[";
        for (std::size_t i = 0; i < v.index.size(); ++i)
            s += (i ? ", " : "") + ir::to_string(v.index[i]);
        s += "]";
    }
    return s;
}

std::string element_text(const Buffer& b, int64_t offset) {
    const ir::Shape& shape = b.data->shape;
    std::vector<int64_t> coord(shape.size());
    for (std::size_t d = shape.size(); d-- > 0;) {
        coord[d] = offset % shape[d];
        offset /= shape[d];
    }
    std::string s = b.decl->name + "[";
    for (std::size_t d = 0; d < coord.size(); ++d)
        s += (d ? ", " : "") + std::to_string(coord[d]);
    return s + "]";
}

double combine(event::CopyMode mode, double old, double v) {
    switch (mode) {
    case event::CopyMode::Assign:
        return v;
    case event::CopyMode::Add:
        return old + v;
    case event::CopyMode::Max:
        return std::isnan(old) || std::isnan(v) ? kNaN : std::max(old, v);
    }
    return v;
}

bool needs_coordinates(const event::LeafDef& leaf) {
    for (const auto& op : leaf.body) {
        const ir::LeafOpInfo* info = ir::find_leaf_op(op.op);
        if (info && info->kind == ir::LeafKind::Mask)
            return true;
    }
    return false;
}

} // namespace

Executor::Executor(EventTable& table, Storage& storage, SimReport& report)
    : table_(table), storage_(storage), report_(report) {}

const event::LeafDef& Executor::leaf_of(const event::Op& op) const {
    const event::LeafDef* leaf = table_.program().find_leaf(op.callee);
    if (!leaf)
        fail_at(op.loc, "%" + op.result + " calls " + op.callee + ", which is not a leaf of " +
                            table_.program().name);
    return *leaf;
}

std::vector<Executor::Access> Executor::copy_accesses(const event::Op& op, const Ctx& c) {
    Access src{storage_.resolve(op.src, c, op), true, false, false};
    Access dst{storage_.resolve(op.dst, c, op), false, true, op.mode != event::CopyMode::Assign};
    if (src.r.view.shape() != dst.r.view.shape())
        fail_at(op.loc, "%" + op.result + " copies " + view_text(op.src) + " of shape " +
                            ir::shape_string(src.r.view.shape()) + " to " + view_text(op.dst) +
                            " of shape " + ir::shape_string(dst.r.view.shape()));
    return {std::move(src), std::move(dst)};
}

std::vector<Executor::Access> Executor::call_accesses(const event::Op& op,
                                                      const event::LeafDef& leaf, const Ctx& c) {
    std::vector<Access> out;
    std::size_t scalars = 0;
    for (const auto& prm : leaf.params) {
        if (!prm.is_tensor) {
            ++scalars;
            continue;
        }
        const std::size_t i = out.size();
        if (i >= op.args.size())
            fail_at(op.loc, "%" + op.result + " passes " + std::to_string(op.args.size()) +
                                " tensors to " + leaf.name + ", which takes more");
        Access a{storage_.resolve(op.args[i], c, op), ir::privilege_reads(prm.privilege),
                 ir::privilege_writes(prm.privilege) || ir::privilege_reduces(prm.privilege),
                 false};
        // A leaf's reduce argument is its private copy: read and written, as rw.
        a.reads = a.reads || ir::privilege_reduces(prm.privilege);
        if (a.r.view.shape() != prm.shape)
            fail_at(op.loc, "%" + op.result + " passes " + view_text(op.args[i]) + " of shape " +
                                ir::shape_string(a.r.view.shape()) + " as " + leaf.name + "'s " +
                                prm.name + ", which is " + ir::shape_string(prm.shape));
        out.push_back(std::move(a));
    }
    if (out.size() != op.args.size() || scalars != op.scalars.size())
        fail_at(op.loc, "%" + op.result + " passes " + std::to_string(op.args.size()) +
                            " tensors and " + std::to_string(op.scalars.size()) + " scalars to " +
                            leaf.name + ", which takes " + std::to_string(out.size()) + " and " +
                            std::to_string(scalars));
    return out;
}

bool Executor::reportable(NodeId id, const Buffer& b) {
    return report_.races.size() < kMaxRaces &&
           reported_.insert({table_.node(id).op, b.decl}).second;
}

void Executor::race(NodeId id, const Buffer& b, int64_t offset, const std::string& verb,
                    const std::string& detail) {
    const std::string op = table_.describe(id);
    report_.races.push_back(
        {op, b.decl->name, op + " " + verb + " " + element_text(b, offset) + " (" + detail + ")"});
}

void Executor::start(NodeId id, int64_t step) {
    const event::Op& op = *table_.node(id).op;
    const Ctx c = table_.ctx(id);
    Running run;
    run.started = step;
    run.accesses =
        op.kind == event::OpKind::Copy ? copy_accesses(op, c) : call_accesses(op, leaf_of(op), c);
    for (Access& a : run.accesses) {
        if (!a.writes)
            continue;
        Buffer& b = *a.r.buffer;
        for (int64_t o : a.offsets()) {
            if (o < 0)
                continue;
            Buffer::Element& e = b.state[o];
            if (!a.reduces && e.done_at != kPending && e.reducers == 0) {
                // The common case, inline: nobody else is writing the element.
                ++b.pending;
                e.writer = id;
                e.done_at = kPending;
            } else if (a.reduces) {
                claim_reduction(id, a, o);
            } else {
                claim_write(id, a, o);
            }
            if (b.arena)
                start_aliased_write(id, a, o);
        }
    }
    running_.emplace(id, std::move(run));
}

void Executor::claim_write(NodeId id, const Access& a, int64_t o) {
    Buffer& b = *a.r.buffer;
    Buffer::Element& e = b.state[o];
    const bool pending = e.done_at == kPending;
    if (!pending)
        ++b.pending;
    if ((pending && e.writer != id) || e.reducers > 0) {
        // It reads what it writes (rw leaf arguments): that read happens now, so it is poison.
        if (a.reads)
            b.data->data[o] = kNaN;
        if (reportable(id, b)) {
            const std::string by = table_.describe(e.writer);
            const std::string doing = e.reducers > 0 ? " reducing into it" : " writing it";
            if (a.reads)
                race(id, b, o, "read poisoned", by + " was still" + doing);
            else
                race(id, b, o, "started writing", by + " was still" + doing);
        }
    }
    e.writer = id;
    e.done_at = kPending;
}

void Executor::claim_reduction(NodeId id, const Access& a, int64_t o) {
    Buffer& b = *a.r.buffer;
    Buffer::Element& e = b.state[o];
    if (e.done_at == kPending && e.writer != id && reportable(id, b))
        race(id, b, o, "started reducing into",
             table_.describe(e.writer) + " was still writing it");
    ++e.reducers;
    ++b.reducing;
    if (e.done_at != kPending) // a plain writer in flight keeps the element until it completes
        e.writer = id;
}

void Executor::reduce_into(NodeId id, const Access& a, const std::vector<double>& values,
                           event::CopyMode mode, int64_t step) {
    Buffer& b = *a.r.buffer;
    const std::vector<int64_t>& offsets = a.offsets();
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const int64_t o = offsets[i];
        if (o < 0)
            continue;
        Buffer::Element& e = b.state[o];
        b.data->store(o, combine(mode, b.data->data[o], values[i]));
        --e.reducers;
        --b.reducing;
        if (e.done_at != kPending) // a plain writer that started since keeps it (a race)
            e.done_at = step;
        if (b.arena)
            b.arena->finish_write(b, o, id);
    }
    b.last_done = step;
}

void Executor::start_aliased_write(NodeId id, const Access& a, int64_t o) {
    const Buffer& b = *a.r.buffer;
    if (a.reads) {
        const NodeId by = b.arena->clobbered_by(b, o);
        if (by >= 0) {
            b.data->data[o] = kNaN;
            if (reportable(id, b))
                race(id, b, o, "read",
                     "its shared memory was overwritten by " + table_.describe(by));
        }
    }
    const NodeId other = b.arena->start_write(b, o, id);
    if (other >= 0 && reportable(id, b))
        race(id, b, o, "started writing",
             table_.describe(other) + " was still writing its shared memory");
}

std::vector<double> Executor::gather(NodeId id, const Running& run, const Access& a) {
    const Buffer& b = *a.r.buffer;
    const std::vector<int64_t>& offsets = a.offsets();
    const bool settled = b.settled_before(run.started);
    std::vector<double> values(offsets.size());
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const int64_t o = offsets[i];
        if (o < 0) {
            values[i] = 0.0; // padding reads zero
        } else if (b.arena && b.arena->clobbered_by(b, o) >= 0) {
            values[i] = kNaN;
            if (reportable(id, b))
                race(id, b, o, "read",
                     "its shared memory was overwritten by " +
                         table_.describe(b.arena->clobbered_by(b, o)));
        } else if (settled || (b.state[o].reducers == 0 &&
                               (b.state[o].writer == id || b.state[o].done_at < run.started))) {
            values[i] = b.data->data[o];
        } else {
            values[i] = kNaN;
            if (!reportable(id, b))
                continue;
            const std::string by = table_.describe(b.state[o].writer);
            if (b.state[o].reducers > 0)
                race(id, b, o, "read poisoned", "being reduced into by " + by);
            else if (b.state[o].done_at == kPending)
                race(id, b, o, "read poisoned", "written by " + by + ", not complete");
            else
                race(id, b, o, "read", "overwritten by " + by + ", which started while it ran");
        }
    }
    return values;
}

void Executor::scatter(NodeId id, const Access& a, const std::vector<double>& values, bool rounded,
                       int64_t step) {
    Buffer& b = *a.r.buffer;
    const std::vector<int64_t>& offsets = a.offsets();
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        const int64_t o = offsets[i];
        if (o < 0 || b.state[o].writer != id)
            continue; // padding, or a later writer took the element over (a reported race)
        if (rounded)
            b.data->data[o] = values[i];
        else
            b.data->store(o, values[i]);
        if (b.state[o].done_at == kPending)
            --b.pending;
        b.state[o].done_at = step;
        if (b.arena)
            b.arena->finish_write(b, o, id);
    }
    b.last_done = step;
}

void Executor::finish(NodeId id, int64_t step) {
    auto it = running_.find(id);
    const Running run = std::move(it->second);
    running_.erase(it);
    if (table_.node(id).op->kind == event::OpKind::Copy)
        finish_copy(id, run, step);
    else
        finish_call(id, run, step);
}

void Executor::finish_copy(NodeId id, const Running& run, int64_t step) {
    const event::Op& op = *table_.node(id).op;
    const Access &src = run.accesses[0], &dst = run.accesses[1];
    const std::vector<double> values = gather(id, run, src);
    if (op.mode != event::CopyMode::Assign)
        return reduce_into(id, dst, values, op.mode, step);
    // Values copied between tensors of one dtype are already representable.
    scatter(id, dst, values, src.r.view.dtype() == dst.r.view.dtype(), step);
}

void Executor::finish_call(NodeId id, const Running& run, int64_t step) {
    const event::Op& op = *table_.node(id).op;
    const event::LeafDef& leaf = leaf_of(op);
    const Ctx c = table_.ctx(id);
    const bool coords = needs_coordinates(leaf);
    // The leaf runs on private copies: poison substitutes for racy reads without touching the
    // shared storage, and a write-only argument starts as poison.
    std::map<std::string, LeafArg> args;
    std::map<std::string, int64_t> ints = table_.program().sizes;
    std::map<std::string, double> floats;
    std::vector<std::shared_ptr<HostTensor>> locals;
    std::size_t t = 0, s = 0;
    for (const auto& prm : leaf.params) {
        if (!prm.is_tensor) {
            const ir::Value v = table_.eval_value(c, op.scalars[s++], op.loc);
            if (v.is_int && prm.dtype == ir::DType::I32)
                ints[prm.name] = v.i;
            else
                floats[prm.name] = round_to(prm.dtype, v.as_double());
            continue;
        }
        const Access& a = run.accesses[t++];
        if (!a.writes && !coords && !a.r.buffer->arena && a.r.buffer->settled_before(run.started)) {
            // Nothing can race on it: the leaf reads the storage itself.
            args[prm.name] = LeafArg{a.r.view, 0.0, op.loc};
            locals.push_back(nullptr);
            continue;
        }
        auto local = std::make_shared<HostTensor>();
        local->dtype = a.r.view.dtype();
        local->shape = a.r.view.shape();
        local->data = a.reads ? gather(id, run, a) : std::vector<double>(a.offsets().size(), kNaN);
        View v =
            coords ? View::whole(local, storage_.mirrored_coords(a.r, c, op)) : View::whole(local);
        args[prm.name] = LeafArg{std::move(v), 0.0, op.loc};
        locals.push_back(std::move(local));
    }
    const ir::NameLookup names = [&](const std::string& n, ir::Value& out) {
        if (auto f = floats.find(n); f != floats.end()) {
            out = ir::Value::of_float(f->second);
            return true;
        }
        if (auto i = ints.find(n); i != ints.end()) {
            out = ir::Value::of_int(i->second);
            return true;
        }
        return false;
    };
    for (const auto& stmt : leaf.body) {
        std::vector<LeafArg> operands;
        for (const auto& o : stmt.operands) {
            if (o.is_tensor()) {
                auto it = args.find(o.tensor().name);
                if (it == args.end() || !o.tensor().indices.empty())
                    fail_at(stmt.loc, "leaf " + leaf.name + ": operand " + o.tensor().name +
                                          " is not one of its tensor parameters");
                operands.push_back(it->second);
                continue;
            }
            auto v = ir::evaluate(*o.scalar(), names);
            if (!v)
                fail_at(stmt.loc, "leaf " + leaf.name + ": " + v.errors().front().message);
            operands.push_back({std::nullopt, v->as_double(), stmt.loc});
        }
        if (auto d = eval_leaf(stmt, operands))
            fail_at(d->loc.known() ? d->loc : op.loc,
                    table_.describe(id) + " calling " + leaf.name + ": " + d->message);
    }
    for (std::size_t i = 0; i < run.accesses.size(); ++i)
        if (run.accesses[i].writes)
            scatter(id, run.accesses[i], locals[i]->data, true, step); // the leaf rounded
}

} // namespace kiln::interp::sim
