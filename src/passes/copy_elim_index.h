#pragma once
// What the copy-elimination patterns (copy_patterns.h) ask of an event program: where each
// operation sits (block, textual order, enclosing loops), what a view resolves to (its root
// tensor and a structural key, so that two partitions with the same source and spec name the
// same pieces; and whether two views denote the same elements in the same order, by their
// element maps), which tensors an operation reads and writes, who consumes an event, and
// happens-before along event references. Accesses and happens-before are those of the shared
// analyses (tensor_access.h, happens_before.h); this adds positions and structural view keys.
//
// Requires: tensor, partition and event names are unique in the program (copy_elim checks it).
// The index points into the program and is rebuilt after every rewrite.
#include "ir/event.h"
#include "passes/happens_before.h"
#include "passes/tensor_access.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

struct OpSite {
    event::Op* op = nullptr;
    event::Block* block = nullptr; // the block whose ops vector holds `op`
    int order = 0;                 // pre-order position in the whole program
    int end = 0;                   // last pre-order position of `op`'s subtree
    std::vector<event::Op*> loops; // enclosing for / pfor, outermost first
};

// Same processor dimensions (variables, levels, extents), in the same order.
bool same_dims(const std::vector<event::ProcDim>& a, const std::vector<event::ProcDim>& b);
// A copy that overwrites its destination (not a reducing copy-out).
bool is_assign_copy(const event::Op& op);

class CopyElimIndex {
public:
    explicit CopyElimIndex(event::EventProgram& program);

    const std::vector<OpSite>& sites() const { return sites_; }
    const OpSite& site(const event::Op& op) const { return sites_.at(position_.at(&op)); }
    event::Op* alloc_of(const std::string& tensor) const;
    event::Op* part_of(const std::string& partition) const;
    event::Op* definition(const std::string& event_id) const;

    // The tensor a view is a piece of (through partitions of partitions).
    std::string root_of(const event::View& v) const;
    // Equal keys name the same elements: the root, every partition spec on the way, the indices.
    std::string key_of(const event::View& v) const;
    ir::Shape shape_of(const event::View& v) const;
    // The partitions on the way from `v` to its root, innermost first.
    std::vector<const event::Partition*> chain_of(const event::View& v) const;
    // Every partition on the way is disjoint and unpadded: a piece written and read back through
    // it holds exactly what was written.
    bool exact_pieces(const event::View& v) const;
    // Every name a view depends on: partition names, index variables, the root.
    std::set<std::string> names_in(const event::View& v) const;
    // `a` and `b`, as named by `op`, are the same piece: for every value of the processor and
    // loop variables in scope at `op`, every coordinate of `a` is the same element of the same
    // root tensor as that coordinate of `b`. Equal keys are the same piece; otherwise the
    // element maps are compared point by point (through ir::piece_to_source), so two different
    // partitions that happen to denote the same elements in the same order (an accumulator
    // fragment and an equal lhs fragment) match, while the same elements in another order (a
    // shuffle) or a padded edge do not. Cached per pair.
    bool same_piece(const event::View& a, const event::View& b, const event::Op& op) const;
    // One partition on the way from a piece to its root, its index evaluated.
    struct PieceStep {
        const event::Partition* part;
        ir::Shape source, index;
    };

    // Root tensors a copy or call reads / writes (empty for alloc, part, join and loops: the
    // patterns visit the operations of a loop body one by one).
    const std::set<std::string>& reads(const event::Op& op) const;
    const std::set<std::string>& writes(const event::Op& op) const;
    bool accesses(const event::Op& op, const std::string& tensor) const {
        return reads(op).count(tensor) || writes(op).count(tensor);
    }
    // Operations that mention tensor or partition `name` (views, partition sources), in order.
    std::vector<event::Op*> users_of(const std::string& name) const;

    // `later` starts only after `earlier` has ended (one iteration of the loops around both).
    bool happens_before(const event::Op& earlier, const event::Op& later) const {
        return order_.before(earlier, later);
    }
    // Operations whose `after` list names `event_id`; `in_yield` is set when a yield does.
    std::vector<event::Op*> consumers_of(const std::string& event_id,
                                         bool* in_yield = nullptr) const;
    // `site_op` sits inside `block` (directly or in a nested loop body).
    bool inside(const event::Op& site_op, const event::Block& block) const;
    // `v` is declared where `x` is and before it (depend writes `mirrors` in the caller's scope).
    bool visible_at(const event::View& v, const event::Op& x) const;
    // `s` sits in the body of the loop at `loop` (directly or nested).
    static bool within(const OpSite& s, const OpSite& loop) {
        return s.order > loop.order && s.order <= loop.end;
    }

private:
    void index_block(event::Block& b, std::vector<event::Op*>& loops);
    // The extent of every processor and loop variable in scope at `op` (sizes are constants).
    std::map<std::string, int64_t> scope_of(const event::Op& op) const;
    bool same_elements(const event::View& a, const event::View& b,
                       const std::map<std::string, int64_t>& scope) const;
    // The steps from `v` to its root with the variables bound by `env`, innermost first; false
    // when an index does not evaluate, leaves the grid, or a tensor is indexed.
    bool resolve(const event::View& v, const std::map<std::string, int64_t>& env,
                 std::vector<PieceStep>& steps) const;
    mutable std::map<std::string, bool> same_piece_cache_;
    event::EventProgram& program_;
    TensorAccess access_;
    HappensBefore order_;
    std::vector<OpSite> sites_;
    std::map<const event::Op*, std::size_t> position_;
    std::map<std::string, event::Op*> allocs_, parts_, defs_;
};

} // namespace kiln::passes
