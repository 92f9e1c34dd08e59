#pragma once
// What a copy or call instance does to memory under simulation, and the races it can see.
//
// Start: every element the instance writes becomes pending, owned by it (others read poison
// until it completes). Completion: it reads its inputs, computes (a copy with its mode and the
// destination's dtype rounding; a call by evaluating the leaf body with interp::eval_leaf on
// private copies of its arguments) and writes the elements it still owns.
//
// Reductions (`copy add`, `copy max`: the dependence analysis's reduce copy-outs, red.global.add
// on the GPU) are atomic read-modify-writes at completion. They commute, so reductions in flight
// on the same element do not race with each other; with any read or plain write they do.
//
// Races, each reported once per operation and tensor (the element read becomes NaN):
//   read-after-write: an element read while its latest writer has not completed;
//   write-after-read: an element overwritten by a writer that started while the reader was in
//     flight (its latest write completed after the reader started);
//   write-after-write: a writer starting on an element another writer has not completed;
//   aliased shared memory (sim_arena.h): a read of an element whose bytes another tensor has
//     overwritten, or a write to bytes another tensor's writer has not completed.
#include "interp/event_sim.h"
#include "interp/sim_events.h"
#include "interp/sim_storage.h"

#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace kiln::interp::sim {

class Executor {
public:
    Executor(EventTable& table, Storage& storage, SimReport& report);

    void start(NodeId id, int64_t step);
    void finish(NodeId id, int64_t step);

private:
    struct Access {
        Resolved r;
        bool reads = false, writes = false;
        bool reduces = false; // a reduction's destination: written, neither owned nor read
        const std::vector<int64_t>& offsets() const { return *r.offsets; }
    };
    struct Running {
        int64_t started = 0;
        std::vector<Access> accesses;
    };

    std::vector<Access> copy_accesses(const event::Op& op, const Ctx& c);
    std::vector<Access> call_accesses(const event::Op& op, const event::LeafDef& leaf,
                                      const Ctx& c);
    const event::LeafDef& leaf_of(const event::Op& op) const;
    void claim_write(NodeId id, const Access& a, int64_t o);
    void claim_reduction(NodeId id, const Access& a, int64_t o);
    void reduce_into(NodeId id, const Access& a, const std::vector<double>& values,
                     event::CopyMode mode, int64_t step);
    // Element `o` of a buffer in aliased shared memory: check what `a` reads, claim the bytes.
    void start_aliased_write(NodeId id, const Access& a, int64_t o);
    std::vector<double> gather(NodeId id, const Running& run, const Access& a);
    // Stores `values` into the elements of `a` the instance still owns; `rounded`: they are
    // already values of the buffer's dtype.
    void scatter(NodeId id, const Access& a, const std::vector<double>& values, bool rounded,
                 int64_t step);
    void finish_copy(NodeId id, const Running& run, int64_t step);
    void finish_call(NodeId id, const Running& run, int64_t step);
    // The first race of an operation on a tensor is reported (up to a cap), the rest counted
    // as seen.
    bool reportable(NodeId id, const Buffer& b);
    void race(NodeId id, const Buffer& b, int64_t offset, const std::string& verb,
              const std::string& detail);

    EventTable& table_;
    Storage& storage_;
    SimReport& report_;
    std::unordered_map<NodeId, Running> running_;
    std::set<std::pair<const event::Op*, const event::TensorDecl*>> reported_;
};

} // namespace kiln::interp::sim
