#include "interp/sim_arena.h"

#include "interp/sim_storage.h"

#include <algorithm>

namespace kiln::interp::sim {
namespace {

struct Range {
    int64_t begin, end;
};

// The byte ranges of the SHARED tensors in `b`, each `instances` times (once per iteration of
// the pfors around it inside the block).
void collect_ranges(const event::Block& b, int64_t instances, std::vector<Range>& out) {
    for (const auto& op : b.ops) {
        if (op.kind == event::OpKind::Alloc && op.alloc.memory == ir::Memory::Shared &&
            op.alloc.offset >= 0)
            out.push_back({op.alloc.offset,
                           op.alloc.offset + op.alloc.bytes() * instances * point_count(op.over)});
        if (op.kind == event::OpKind::PFor) {
            int64_t n = instances;
            for (int64_t e : op.loop.extents)
                n *= e;
            collect_ranges(op.loop.body, n, out);
        } else if (op.kind == event::OpKind::For) {
            collect_ranges(op.loop.body, instances, out);
        }
    }
}

} // namespace

bool has_aliasing(const event::Op& block) {
    std::vector<Range> ranges;
    collect_ranges(block.loop.body, 1, ranges);
    std::sort(ranges.begin(), ranges.end(),
              [](const Range& a, const Range& b) { return a.begin < b.begin; });
    for (std::size_t i = 1; i < ranges.size(); ++i)
        if (ranges[i].begin < ranges[i - 1].end)
            return true;
    return false;
}

Arena::Byte* Arena::bytes_of(const Buffer& b, int64_t e) {
    const int64_t size = ir::dtype_bytes(b.decl->dtype);
    const int64_t at = b.address + e * size;
    if (static_cast<int64_t>(state_.size()) < at + size)
        state_.resize(at + size);
    return &state_[at];
}

NodeId Arena::start_write(const Buffer& b, int64_t e, NodeId writer) {
    NodeId other = -1;
    Byte* bytes = bytes_of(b, e);
    for (int i = 0; i < ir::dtype_bytes(b.decl->dtype); ++i) {
        if (bytes[i].pending && bytes[i].owner != &b)
            other = bytes[i].writer;
        bytes[i] = {&b, writer, true};
    }
    return other;
}

void Arena::finish_write(const Buffer& b, int64_t e, NodeId writer) {
    Byte* bytes = bytes_of(b, e);
    for (int i = 0; i < ir::dtype_bytes(b.decl->dtype); ++i)
        if (bytes[i].owner == &b && bytes[i].writer == writer)
            bytes[i].pending = false;
}

NodeId Arena::clobbered_by(const Buffer& b, int64_t e) const {
    const int64_t size = ir::dtype_bytes(b.decl->dtype);
    const int64_t at = b.address + e * size;
    for (int64_t i = 0; i < size && at + i < static_cast<int64_t>(state_.size()); ++i)
        if (state_[at + i].owner && state_[at + i].owner != &b)
            return state_[at + i].writer;
    return -1;
}

} // namespace kiln::interp::sim
