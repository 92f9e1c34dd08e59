#pragma once
// Happens-before between the operations of an event program: reachability in the event graph.
//
// Each operation has a start and an end. An operation starts after the end of every event its
// `after` list names (at distance 0) and after its enclosing loop starts; a loop ends after its
// body's yield. Loop-carried references (distance > 0) relate different iterations and are not
// followed, so `before` speaks of one iteration of the loops that enclose both operations.
// Point-wise and broadcast references count alike: a point-wise reference orders the instances
// of the same processor, which is what a per-processor tensor needs (tensors shared by several
// processors are synchronized with broadcast references by construction of the earlier passes).
//
// The analysis points into the program: it stays valid while no operation is added to or removed
// from a block (adding references does not invalidate it, but they are not seen).
#include "ir/event.h"

#include <map>
#include <string>
#include <vector>

namespace kiln::passes {

class HappensBefore {
public:
    explicit HappensBefore(const event::Block& body);

    // `a` ends before `b` starts (in the same iteration of the loops around both). False for
    // a == b.
    bool before(const event::Op& a, const event::Op& b) const;
    // `a`, inside `loop`'s body, ends before the loop's iteration does (it reaches the yield).
    bool ends_iteration(const event::Op& a, const event::Op& loop) const;
    // The loops (for and pfor) around `op`, outermost first.
    const std::vector<const event::Op*>& loops_around(const event::Op& op) const;
    // The innermost loop around both operations, or nullptr.
    const event::Op* common_loop(const event::Op& a, const event::Op& b) const;
    // The operation whose event stands for the completion of `a` where `b` can name it: `a`
    // itself, or the outermost loop around `a` that is not around `b`.
    const event::Op& visible_event(const event::Op& a, const event::Op& b) const;
    // The operation defining event `id`, or nullptr.
    const event::Op* definition(const std::string& id) const;

private:
    void index(const event::Block& block, std::vector<const event::Op*>& loops);
    void connect(const event::Block& block);
    int start(const event::Op& op) const { return 2 * nodes_.at(&op); }
    int end(const event::Op& op) const { return 2 * nodes_.at(&op) + 1; }
    const std::vector<char>& reachable_from(int node) const;

    std::map<const event::Op*, int> nodes_;
    std::map<std::string, const event::Op*> defs_;
    std::map<const event::Op*, std::vector<const event::Op*>> loops_;
    std::vector<std::vector<int>> succ_;
    mutable std::map<int, std::vector<char>> reach_; // memoized per source node
};

} // namespace kiln::passes
