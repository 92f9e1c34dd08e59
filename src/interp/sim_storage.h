#pragma once
// The tensors of an event program under simulation: one buffer per instance of an alloc (per
// processor that owns it, per stage), each element carrying who wrote it last and when that
// write completed, and the views (`part` chains) that operations name.
//
// Instances. An alloc declared in a pfor body or with `over` dimensions has one buffer per
// enclosing pfor iteration and per point of its `over` dimensions, found from the variable
// values of the instance that uses it (the alloc's `over` dimensions are a prefix of the
// user's). A `for` body's alloc is the same storage in every iteration, except that `stages S
// on k` gives S buffers, iteration k using k mod S. Entry tensors (`param`) are the caller's.
#include "interp/event_sim.h"
#include "interp/sim_arena.h"
#include "interp/sim_events.h"
#include "interp/view.h"

#include <limits>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::interp::sim {

// `done_at` of an element whose latest write has started and not completed.
inline constexpr int64_t kPending = std::numeric_limits<int64_t>::max();

struct Buffer {
    const event::TensorDecl* decl = nullptr;
    std::shared_ptr<HostTensor> data;
    View whole;
    // Per element: the latest writer to start (-1 for none) and the step its write completed
    // (kPending while in flight). Kept together: every check reads both.
    struct Element {
        int64_t done_at = -1;
        NodeId writer = -1;   // for a reduction: the latest to start
        int32_t reducers = 0; // `copy add` / `copy max` in flight (they commute)
    };
    std::vector<Element> state;
    // Summaries that let a reader skip the per-element checks: elements pending, and the last
    // step any write to the buffer completed.
    int64_t pending = 0;
    int64_t reducing = 0; // reduction claims in flight
    int64_t last_done = -1;
    // Aliased shared memory (sim_arena.h): the arena of its block, and the byte address of
    // element 0 there; null when its block's tensors do not overlap.
    Arena* arena = nullptr;
    int64_t address = 0;
    // Every element's latest write completed before `step`.
    bool settled_before(int64_t step) const {
        return pending == 0 && reducing == 0 && last_done < step;
    }
};

// A view an operation names, with the buffer it lies in.
struct Resolved {
    View view;
    Buffer* buffer = nullptr;
    std::shared_ptr<const std::vector<int64_t>> offsets; // View::element_offsets()
};

struct KeyHash {
    std::size_t operator()(const std::vector<int64_t>& k) const;
};

// The views of a program, built once for all its runs: a view depends on the alloc (its shape),
// the partitions of its chain and their indices, never on which instance of the alloc it lies in.
struct ViewCache {
    struct Entry {
        View view; // of the first buffer it was built for; View::on rebinds it
        std::shared_ptr<const std::vector<int64_t>> offsets;
    };
    std::unordered_map<std::vector<int64_t>, Entry, KeyHash> entries;
};

class Storage {
public:
    Storage(const EventTable& table, std::map<std::string, std::shared_ptr<HostTensor>>& params,
            const SimOptions& options, ViewCache& views);

    // The view `v` names for the instance at `c`; `user` is the operation, for messages.
    Resolved resolve(const event::View& v, const Ctx& c, const event::Op& user);
    // For each coordinate of `r.view`, its coordinate in the tensor at the end of the `mirrors`
    // chain of r's buffer (-1 where a padded piece leaves it): what `mask` must see.
    std::vector<std::vector<int64_t>> mirrored_coords(const Resolved& r, const Ctx& c,
                                                      const event::Op& user);

private:
    struct Keyed {
        Resolved r;
        std::vector<int64_t> key; // the alloc, then each partition of the chain and its index
    };
    Keyed resolve_keyed(const event::View& v, const Ctx& c, const event::Op& user);
    Buffer& buffer(const event::Op& alloc, const Scope* declared_in, const Ctx& c,
                   const event::Op& user);
    std::unique_ptr<Buffer> make_buffer(const event::TensorDecl& decl, const event::Op& user);
    void place_in_arena(Buffer& b, const event::Op& alloc, const Scope* declared_in, int64_t point,
                        int64_t stage);

    const EventTable& table_;
    std::map<std::string, std::shared_ptr<HostTensor>>& params_;
    const SimOptions& options_;
    ViewCache& views_;
    std::unordered_map<std::vector<int64_t>, std::unique_ptr<Buffer>, KeyHash> buffers_;
    std::unordered_map<const event::Op*, bool> aliasing_;             // per BLOCK pfor
    std::unordered_map<const Scope*, std::unique_ptr<Arena>> arenas_; // per BLOCK iteration
};

} // namespace kiln::interp::sim
