#pragma once
// The event IR (Cypress §4.1): what the compiler passes (src/passes/) rewrite between the task
// tree and CUDA. Text form and its grammar: docs/event_ir.md (print_event_program /
// parse_event_program round-trip exactly).
//
// A program is one Block of operations. Every operation that may run asynchronously (a copy, a
// leaf call, a loop, a join) defines one event: its completion. Events are SSA values (each id is
// defined once) and are the ONLY ordering between operations: an operation may start once every
// event in its `after` list has completed, and nothing else orders it. Two operations with no
// event path between them may run in either order or overlap, and the passes must never rely on
// textual order (the event-IR simulator in src/interp/ picks adversarial orders to prove it).
//
// Processors. Before vectorization the processor structure is explicit: a `pfor` at level L runs
// each iteration on its own processor of level L. After vectorization (src/passes/vectorize.cpp)
// the implicit pfors inside a BLOCK (WARPGROUP, WARP, THREAD) are gone and every operation
// instead lists the processor dimensions it is replicated over (`over`): one instance per point,
// the pfor's variable now naming the processor index. The BLOCK-level pfor (the grid) stays.
//
// Event arrays. The event an operation defines has one dimension per `over` dimension of that
// operation; a pfor's event additionally has one dimension per loop variable (level = the
// pfor's level), after the `over` dimensions. A reference indexes every dimension with an
// expression (point-wise: wait for that processor's instance) or with `:` (broadcast: wait for
// all instances along that dimension — a synchronization of those processors).
//
// Loops. A `for` runs its iterations in order: unless the loop is pipelined, iteration k+1 starts
// only after iteration k's yield event has completed. A pipelined loop (`pipeline = D`, set by
// src/passes/pipeline.cpp) drops that implicit serialization; iterations may overlap and are
// ordered only by loop-carried event references (`distance` > 0). The event a for defines
// completes when every iteration's yield has. A pfor's iterations are independent (one per
// processor); its event is the array of the iterations' yields.
//
// Tensors. `alloc` creates a tensor in a memory; it is a declaration, not an event. A tensor
// allocated inside a pfor body or an operation with `over` dimensions has one instance per
// processor (per iteration of the enclosing pfors and per point of the `over` dimensions); an
// operation refers to the instance of its own processor (the `over` dimensions of the alloc are
// a prefix of the user's). A tensor allocated inside a `for` body is the same storage in every
// iteration, except that a tensor with `stages` = S > 1 has S buffers and iteration k uses buffer
// k mod S of the loop whose variable is `stage_var`. Entry tensors (`param`) are global tensors
// that exist before the program starts. Views (`part` + indexing) name pieces of tensors with the
// partition semantics of src/ir/partition.h; a partition may partition a piece of another.
#include "ir/diagnostic.h"
#include "ir/expr.h"
#include "ir/partition.h"
#include "ir/program.h"
#include "ir/types.h"
#include "mapping/mapping.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln::event {

using ir::Shape;

// One processor dimension of an operation's replication or of an event array.
struct ProcDim {
    std::string var; // the variable that names the processor index ("g", "w", "t")
    ir::Level level = ir::Level::Thread;
    int64_t extent = 1;
};

// A tensor, or piece `index` of partition `name` (then `name` is a partition, not a tensor).
// Index expressions range over loop variables and processor variables in scope.
struct View {
    std::string name;
    std::vector<ir::ExprPtr> index; // empty: the whole tensor
    bool whole() const { return index.empty(); }
};

// A reference to an event from an operation's `after` list (or a yield / join).
struct EventRef {
    std::string id;                 // the defining operation's `result`, without the '%'
    std::vector<ir::ExprPtr> index; // one per event dimension; nullptr is `:` (broadcast)
    // Loop-carried: the instance defined `distance` iterations earlier of the innermost enclosing
    // `for` whose body defines `id`. Satisfied trivially in the first `distance` iterations.
    int64_t distance = 0;
    // Set by warp specialization: producer and consumer run in different roles, so codegen must
    // realize this edge with a shared-memory barrier.
    bool cross = false;
};

enum class OpKind { Alloc, Part, Copy, Call, Join, For, PFor };
// Which warps run an operation once the program is warp-specialized (src/passes/warpspec.cpp).
enum class Role { Any, Dma, Compute };
// How a copy combines with the destination: overwrite, or fold in (reduce(+) / reduce(max)
// copy-outs of the dependence analysis).
enum class CopyMode { Assign, Add, Max };

struct TensorDecl {
    std::string name;
    ir::Memory memory = ir::Memory::Global;
    ir::DType dtype = ir::DType::F32;
    Shape shape; // of one instance (one processor's, one stage's)
    bool param = false;
    ir::Privilege privilege = ir::Privilege::Read; // params only
    int64_t stages = 1;
    std::string stage_var; // set when stages > 1
    std::optional<mapping::Layout> layout;
    int64_t offset = -1; // SHARED only: byte offset from the block's base once allocated
    // Where the dependence analysis created it: "gemm_tile.A" (instance.parameter) — kept through
    // every pass so messages and generated code can point back to the program.
    std::string origin;
    // The piece of the caller's tensor this fresh allocation stands for (the copy-in/copy-out
    // source). Leaf ops whose meaning depends on coordinates in the original tensor (`mask`) see
    // them through this chain, as the program interpreter sees them through partitions.
    std::optional<View> mirrors;
    int64_t bytes() const; // one instance, all stages
};

struct Partition {
    std::string name;
    View source;
    ir::PartitionSpec spec;
    ir::PartitionShape shape; // grid and piece shape, as ir::partition_shape computes them
};

struct Op;

struct Block {
    std::vector<Op> ops;
    std::optional<EventRef> yield; // the completion of an iteration; none for an empty body
};

// Mapping controls carried onto the loop that runs the mapped instance's body.
struct LoopControls {
    bool warpspecialize = false;
    int64_t pipeline = 0;   // requested depth (on the BLOCK pfor) / applied depth (on a for)
    int64_t smem_limit = 0; // bytes; 0: the machine's
    bool persistent = false;
    int64_t cluster = 1; // CTAs per thread-block cluster (the mapping's `cluster`)
    // Per-thread register budgets of the two roles (Hopper setmaxnreg), set by warp
    // specialization on the BLOCK pfor; 0: not warp-specialized.
    int64_t dma_registers = 0;
    int64_t compute_registers = 0;
};

struct Loop {
    std::vector<std::string> vars;
    Shape extents;                      // one per variable
    // A one-variable `for` may stop early: it runs min(extent, limit) iterations (the program's
    // srange limit, over the enclosing loops' variables). Everything static (stages, buffers,
    // barrier counts) is planned for the extent.
    ir::ExprPtr limit;
    ir::Level level = ir::Level::Block; // pfor: the processor level of one iteration
    LoopControls controls;
    Block body;
};

struct Op {
    OpKind kind = OpKind::Copy;
    std::string result;                // the event it defines (no '%'); empty for Alloc and Part
    std::vector<EventRef> after;       // preconditions (for Join: the events joined)
    ir::Level level = ir::Level::Host; // the processor level that executes it
    std::vector<ProcDim> over;         // replication after vectorization, outermost first
    Role role = Role::Any;

    TensorDecl alloc; // Alloc
    Partition part;   // Part
    View src, dst;    // Copy: dst <- src
    CopyMode mode = CopyMode::Assign;
    std::string callee;               // Call: a LeafDef of the program
    std::vector<View> args;           // Call: tensor arguments, in the leaf's parameter order
    std::vector<ir::ExprPtr> scalars; // Call: scalar arguments, in parameter order
    Loop loop;                        // For, PFor

    std::string note; // provenance ("copy-in A for gemm_tile"), printed as a trailing comment
    Loc loc;          // the program construct it came from
};

// A leaf variant as the calls see it: concrete parameter shapes and the leaf body of the source
// program (evaluated by interp::eval_leaf, emitted by codegen).
struct LeafParam {
    std::string name;
    bool is_tensor = true;
    ir::Privilege privilege = ir::Privilege::Read;
    ir::DType dtype = ir::DType::F32;
    Shape shape;
};

struct LeafDef {
    std::string name; // the leaf variant's name
    std::vector<LeafParam> params;
    std::vector<ir::LeafOp> body;
};

struct EventProgram {
    std::string name;
    std::map<std::string, int64_t> sizes;
    std::vector<LeafDef> leaves;
    Block body;

    const LeafDef* find_leaf(const std::string& n) const;
};

// ---- queries shared by the passes and the simulator ----

std::string_view spelling(OpKind k);
std::string_view spelling(Role r);

// A `for` or a `pfor`: an operation with a body.
bool is_loop(const Op& op);

// Calls `f` on every operation, parents before the ops of their bodies, in textual order.
void walk(const Block& b, const std::function<void(const Op&)>& f);
void walk(Block& b, const std::function<void(Op&)>& f);

// The dimensions of the event `op` defines (see "Event arrays" above).
std::vector<ProcDim> event_dims(const Op& op);

} // namespace kiln::event
