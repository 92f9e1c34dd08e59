#pragma once
// The static task tree (Cypress §3.3): the mapping instantiates one node per (launch site,
// instance) reached from the entry instance. Iterations are not unrolled: a launch inside loops is
// one node that records its loop nest, because every iteration sees the same shapes (partitions
// keep full tile shapes; instantiate() rejects shapes that depend on loop variables).
//
// The tree is what the later passes (dependence analysis onwards) walk: each node carries the
// concrete shape, dtype, privilege and memory of every tensor it touches, where each argument
// comes from in the parent (a whole tensor or an indexed piece of a partition), the partitions
// and tensors the node's variant creates, and its children in program order.
//
// Nodes point into the ir::Program they were built from (`site`, `variant_ir`, `instance_ir`):
// the program must outlive the tree.
#include "ir/partition.h"
#include "ir/program.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kiln::passes {

using Sizes = std::map<std::string, int64_t>;

// One srange / prange around a launch site, with its concrete extents.
struct LoopFrame {
    int id = 0;            // unique within the parent node: children under one loop share its id
    bool parallel = false; // prange
    std::vector<std::string> vars;
    ir::Shape extents; // one per variable
    Loc loc;
};

// Where a tensor argument comes from in the parent's scope. Empty `tensor` for the root.
struct ArgSource {
    std::string tensor;               // the parent's tensor: a parameter or a tensor it created
    std::string partition;            // empty: the whole tensor; else the partition indexed
    std::vector<ir::ExprPtr> indices; // the piece's indices, over the parent's loop variables
    bool whole() const { return partition.empty(); }
};

struct TensorArg {
    std::string param; // the callee's parameter
    ir::DType dtype = ir::DType::F32;
    ir::Shape shape;
    ir::Privilege privilege = ir::Privilege::Read;
    ir::Memory memory = ir::Memory::Global; // as the node's instance maps it
    ArgSource source;
    Loc loc; // the argument in the launch (the parameter for the root)
};

struct ScalarArg {
    std::string param;
    ir::DType dtype = ir::DType::F32;
    ir::ExprPtr expr;               // the argument in the parent; nullptr for the root
    std::optional<ir::Value> value; // when known statically
};

// A tensor the node's variant creates (`let t = tensor ...`).
struct CreatedTensor {
    std::string name;
    ir::DType dtype = ir::DType::F32;
    ir::Shape shape;
    ir::Memory memory = ir::Memory::Global;
    Loc loc;
};

// A partition the node's variant declares, evaluated.
struct PartitionInfo {
    std::string name;
    std::string source; // the partitioned tensor (a parameter or a created tensor)
    ir::PartitionSpec spec;
    ir::PartitionShape shape; // grid and piece shape
    Loc loc;
};

struct TaskNode {
    std::string instance;
    std::string variant;
    std::string task;
    ir::Level level = ir::Level::Host;
    bool leaf = false;

    const ir::Launch *site = nullptr; // the launch in the parent's variant; null for the root
    std::vector<LoopFrame> loops;     // around `site`, outermost first; empty: an inline launch

    std::vector<TensorArg> tensors; // tensor parameters, in signature order
    std::vector<ScalarArg> scalars; // scalar parameters, in signature order
    Sizes symbols;                  // shape symbols of the task, unified at this launch
    Sizes tunables;                 // as the instance binds them
    std::vector<CreatedTensor> created;
    std::vector<PartitionInfo> partitions;
    std::vector<TaskNode> children; // in program order

    const ir::Variant *variant_ir = nullptr;
    const mapping::Instance *instance_ir = nullptr;

    const TensorArg *find_tensor(const std::string &param) const;
    const CreatedTensor *find_created(const std::string &name) const;
    const PartitionInfo *find_partition(const std::string &name) const;
};

struct TaskTree {
    Sizes sizes; // the entry task's shape symbols (the problem sizes)
    TaskNode root;
};

// Every node of the subtree, parents before children, children in program order.
std::vector<const TaskNode *> preorder(const TaskNode &root);

// The `kiln tree` text: one line per node (instance: variant @ LEVEL, tensors, tunables),
// its partitions, and its children indented under their loops. Deterministic.
std::string print_tree(const TaskTree &tree);

// "blocks(C, [128, 256], pad)", "mma(C, acc, WARPGROUP, 256)".
std::string partition_text(const PartitionInfo &p);

} // namespace kiln::passes
