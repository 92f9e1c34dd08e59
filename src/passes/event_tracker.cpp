#include "passes/event_tracker.h"

#include <algorithm>

namespace kiln::passes {
namespace {

bool same_index(const ir::ExprPtr& a, const ir::ExprPtr& b) {
    return (!a && !b) || (a && b && ir::equal(a, b));
}

bool same_ref(const event::EventRef& a, const event::EventRef& b) {
    return a.id == b.id && a.distance == b.distance && a.cross == b.cross &&
           std::equal(a.index.begin(), a.index.end(), b.index.begin(), b.index.end(), same_index);
}

// A reference to every instance of the event, in this iteration.
bool whole(const event::EventRef& r) {
    return r.distance == 0 &&
           std::all_of(r.index.begin(), r.index.end(), [](const auto& i) { return !i; });
}

} // namespace

void Implications::add_implied(std::set<std::string>& out, const event::EventRef& r) const {
    if (!whole(r))
        return;
    out.insert(r.id);
    if (auto it = implied_.find(r.id); it != implied_.end())
        out.insert(it->second.begin(), it->second.end());
}

void Implications::record(const event::Op& op) {
    std::set<std::string>& out = implied_[op.result];
    for (const auto& r : op.after)
        add_implied(out, r);
    if (op.kind != event::OpKind::For && op.kind != event::OpKind::PFor)
        return;
    event::walk(op.loop.body, [&](const event::Op& inner) {
        for (const auto& r : inner.after)
            add_implied(out, r);
        if (!inner.result.empty())
            add_implied(out, event::EventRef{inner.result, {}});
    });
}

std::vector<event::EventRef> Implications::reduce(const std::vector<event::EventRef>& refs) const {
    std::vector<event::EventRef> out;
    for (const auto& r : refs) {
        bool implied =
            r.distance == 0 && std::any_of(refs.begin(), refs.end(), [&](const auto& o) {
                auto it = implied_.find(o.id);
                return whole(o) && o.id != r.id && it != implied_.end() && it->second.count(r.id);
            });
        if (!implied)
            out.push_back(r);
    }
    return out;
}

void add_unique(std::vector<event::EventRef>& refs, const event::EventRef& r) {
    if (std::none_of(refs.begin(), refs.end(), [&](const auto& x) { return same_ref(x, r); }))
        refs.push_back(r);
}

void EventTracker::declare(const std::string& tensor) {
    states_[tensor] = State{};
}

std::vector<event::EventRef> EventTracker::before_read(const std::string& tensor) const {
    auto it = states_.find(tensor);
    return it == states_.end() ? std::vector<event::EventRef>{} : it->second.last_write;
}

std::vector<event::EventRef> EventTracker::before_write(const std::string& tensor) const {
    auto refs = before_read(tensor);
    if (auto it = states_.find(tensor); it != states_.end())
        for (const auto& r : it->second.reads)
            add_unique(refs, r);
    return refs;
}

void EventTracker::read(const std::string& tensor, const event::EventRef& e) {
    add_unique(states_[tensor].reads, e);
    touch(tensor, false);
}

void EventTracker::wrote(const std::string& tensor, const event::EventRef& e) {
    states_[tensor] = State{{e}, {}};
    touch(tensor, true);
}

void EventTracker::touch(const std::string& tensor, bool written) {
    if (loops_.empty())
        return;
    bool& w = loops_.back().touched[tensor];
    w = w || written;
}

void EventTracker::open_loop() {
    loops_.push_back(LoopFrame{states_, {}});
}

void EventTracker::close_loop(const event::EventRef& loop_event) {
    LoopFrame frame = std::move(loops_.back());
    loops_.pop_back();
    states_ = std::move(frame.before);
    for (const auto& [tensor, written] : frame.touched) {
        if (!states_.count(tensor))
            continue; // declared inside the body: gone with it
        if (written)
            wrote(tensor, loop_event);
        else
            read(tensor, loop_event);
    }
}

} // namespace kiln::passes
