#pragma once
// Which tensors each operation of an event program reads and writes, for the passes that
// reason about tensor lifetimes and conflicts (alloc-smem, pipeline-loops).
//
// A view resolves through its partitions to the tensor it is a piece of (pieces are not told
// apart: two pieces of one tensor conflict). A copy reads its source and writes its destination
// (a reducing copy also reads it); a call accesses its tensor arguments as the leaf's parameter
// privileges say (a reduction both reads and writes); a loop accesses what its body does.
//
// Requires: tensor and partition names are unique in the program (the dependence analysis
// names them so). The index points into the program: it stays valid while no operation is added
// to or removed from a block.
#include "ir/event.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

struct TensorUse {
    std::set<std::string> reads, writes;
    bool touches(const std::string& t) const { return reads.count(t) || writes.count(t); }
};

class TensorAccess {
public:
    explicit TensorAccess(const event::EventProgram& program);

    // The alloc operation of tensor `name`, or nullptr for an unknown name.
    const event::Op* alloc_of(const std::string& name) const;
    // The tensor a view is (a piece of).
    std::string tensor_of(const event::View& v) const;
    // What `op` reads and writes (empty for alloc, part and join).
    const TensorUse& use(const event::Op& op) const;
    // The copies and calls that access tensor `name`, in textual order.
    const std::vector<const event::Op*>& accesses(const std::string& name) const;

private:
    const TensorUse& collect(const event::Op& op, const event::EventProgram& program);
    void add(const std::string& tensor, bool reads, bool writes, TensorUse& use) const;

    std::map<std::string, const event::Op*> allocs_;
    std::map<std::string, event::View> partition_sources_;
    std::map<const event::Op*, TensorUse> uses_;
    std::map<std::string, std::vector<const event::Op*>> accesses_;
};

} // namespace kiln::passes
