#pragma once
// The instance structure of an event program under simulation (src/interp/event_sim.h): scopes
// (one per execution of a block: the program, each loop iteration), the event instances (nodes)
// each operation expands into, and the resolution of `after` references to nodes.
//
// Expansion is dynamic. A scope creates the nodes of every event operation of its block when it
// starts: one node per point of the op's `over` dimensions (except those a loop instance with
// the same `over` variable fixes: vectorization gives a loop and every op of its body the
// processor dimensions of the pfor they were in, and the body runs on the loop's processor) (a
// loop: a start node and, for a `for`, a done node; for a `pfor`, one yield node per iteration,
// which is the pfor's event array). A loop's body scopes are created when its start node runs:
// every iteration of a `pfor` or a pipelined `for` at once, the iterations of an ordinary `for` one
// at a time, each when the previous iteration's yield completes. A reference made inside a body
// therefore finds everything it may name already expanded (SSA: definitions precede uses; `@-d`
// names earlier iterations).
#include "ir/event.h"

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace kiln::interp::sim {

using NodeId = int32_t;

// Per block: where each event id is defined and which tensors and partitions it declares.
struct BlockInfo {
    std::unordered_map<std::string, int> events;             // id -> index of the op in the block
    std::unordered_map<std::string, const event::Op*> decls; // alloc and part names
};

enum class ScopeKind { Program, ForIteration, PForIteration };

struct Scope;

// One execution of a loop operation (one per point of its `over` dimensions).
struct LoopRun {
    const event::Op* op = nullptr;
    Scope* outer = nullptr;
    int32_t point = 0;
    int64_t iterations = 0;
    std::vector<Scope*> bodies; // the expanded iterations, in order
    std::vector<NodeId> yields; // pfor: created with the loop, one per iteration
    NodeId done = -1;           // for: the loop's event
};

struct Binding {
    const std::string* name;
    int64_t value;
    bool processor = false; // an `over` variable of the loop instance
};

struct Scope {
    ScopeKind kind = ScopeKind::Program;
    const event::Block* block = nullptr;
    const BlockInfo* info = nullptr;
    Scope* parent = nullptr;
    std::vector<Binding> bindings; // loop variables, and the loop instance's `over` variables
    int64_t iteration = 0;         // the iteration's index
    // Its place in textual order: the enclosing scope's, then the loop's position in that
    // block, the loop instance's point and the iteration (sequential mode sorts by it).
    std::vector<int64_t> order;
    LoopRun* loop = nullptr; // the loop this scope is an iteration of
    // Per op of the block, per flat event point; -1 for the points of `over` dimensions this
    // scope's loop instance fixes (another instance of the loop runs them).
    std::vector<std::vector<NodeId>> events;
};

// Where expressions are evaluated: the instance `point` (flat, row-major over op->over) of `op`
// in `scope`. `op` is null for a yield.
struct Ctx {
    const Scope* scope = nullptr;
    const event::Op* op = nullptr;
    int32_t point = 0;
};

enum class NodeKind { Work /* copy, call */, Join, LoopStart, LoopDone, Yield };

struct Node {
    NodeKind kind = NodeKind::Work;
    const event::Op* op = nullptr; // Yield: the loop
    Scope* scope = nullptr;        // Yield: the iteration (null until the loop starts)
    int32_t point = 0;
    LoopRun* loop = nullptr; // LoopStart, LoopDone, Yield
    int32_t pending = 0;     // unfinished dependencies (+1 while a loop has not expanded it)
    bool complete = false;
    std::vector<NodeId> dependents;
};

class EventTable {
public:
    explicit EventTable(const event::EventProgram& p);
    EventTable(const EventTable&) = delete;
    EventTable& operator=(const EventTable&) = delete;

    // Creates the program's scope and the nodes of its block.
    void expand_program();
    // Runs a LoopStart node: expands the loop's body scopes.
    void start_loop(NodeId id);
    // Marks `id` complete: releases its dependents and advances an ordinary `for`.
    void complete(NodeId id);
    // Nodes whose dependencies all completed since the last call, in creation order.
    std::vector<NodeId> take_ready();

    const Node& node(NodeId id) const { return nodes_[id]; }
    int64_t node_count() const { return static_cast<int64_t>(nodes_.size()); }
    int64_t completed() const { return completed_; }
    Ctx ctx(NodeId id) const;

    // Name lookup and integer evaluation in a context: the op's `over` variables, then the loop
    // variables of the enclosing scopes, then the program's sizes. Unknown names throw.
    bool lookup(const Ctx& c, const std::string& name, int64_t& out) const;
    int64_t eval(const Ctx& c, const ir::ExprPtr& e, const Loc& loc) const;
    ir::Value eval_value(const Ctx& c, const ir::ExprPtr& e, const Loc& loc) const;
    const event::EventProgram& program() const { return program_; }
    // The declaration of alloc or part `name` visible from `c`, and the scope that declares it.
    std::pair<const event::Op*, const Scope*> find_decl(const Ctx& c, const std::string& name,
                                                        const Loc& loc) const;

    // Whether `a` comes before `b` in the program's text (loop bodies at the loop, iterations
    // in order, a yield after its iteration's ops).
    bool textual_before(NodeId a, NodeId b) const;

    // "%e7 (k = 1, g = 0, w = 2, t = 5)": the op and the variable values of the instance.
    std::string describe(NodeId id) const;
    // Why no node can run although some are incomplete: a few blocked instances and the
    // references they wait on.
    std::string deadlock_report() const;

private:
    NodeId add_node(NodeKind kind, const event::Op* op, Scope* scope, int32_t point);
    void depend(NodeId waiter, NodeId on);
    void release(NodeId id);
    void wait_on_refs(NodeId waiter, const std::vector<event::EventRef>& refs, const Ctx& c);
    void resolve(const event::EventRef& r, const Ctx& c, const Loc& loc,
                 std::vector<NodeId>& out) const;
    Scope* new_scope(ScopeKind kind, const event::Block& b, Scope* parent, LoopRun* loop);
    void expand_block(Scope* s);
    void expand_loop_op(Scope* s, const event::Op& op, std::size_t index);
    void expand_iteration(LoopRun& run, int64_t k);
    std::vector<int32_t> instance_points(const Scope* s, const event::Op& op) const;
    void index_block(const event::Block& b);
    std::vector<int64_t> textual_key(NodeId id) const;

    const event::EventProgram& program_;
    std::unordered_map<const event::Block*, BlockInfo> blocks_;
    std::vector<std::unique_ptr<Scope>> scopes_;
    std::vector<std::unique_ptr<LoopRun>> runs_;
    std::vector<Node> nodes_;
    std::vector<NodeId> ready_;
    int64_t completed_ = 0;
};

// Number of points of `dims` and the value of dimension `d` at flat point `p` (row-major).
int64_t point_count(const std::vector<event::ProcDim>& dims);
int64_t point_coord(const std::vector<event::ProcDim>& dims, int64_t p, std::size_t d);

} // namespace kiln::interp::sim
