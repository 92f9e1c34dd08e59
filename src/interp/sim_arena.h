#pragma once
// Shared memory as bytes, for programs whose SHARED tensors alias (alloc-smem gave two of them
// overlapping `offset`s): the simulator keeps each tensor's values apart, and an arena per
// BLOCK pfor iteration records which buffer last wrote each byte, so a read of a tensor whose
// bytes another tensor has overwritten since — or is overwriting — is a race (the reuse was not
// ordered by events).
//
// Addresses follow alloc-smem: instance i of a tensor (row-major over the pfors between the
// BLOCK pfor and the alloc, then its `over` points) lies at offset + i * bytes(), stage s of it
// s * bytes() / stages further. A BLOCK pfor whose tensors never overlap gets no arena.
#include "interp/sim_events.h"

#include <cstdint>
#include <vector>

namespace kiln::interp::sim {

struct Buffer;

class Arena {
public:
    // `writer` starts writing element `e` of `b`; returns the writer of another buffer whose
    // write to those bytes has not completed, or -1.
    NodeId start_write(const Buffer& b, int64_t e, NodeId writer);
    void finish_write(const Buffer& b, int64_t e, NodeId writer);
    // The writer that last put another buffer's data in element `e`'s bytes, or -1 when they
    // hold b's own data (or nothing yet).
    NodeId clobbered_by(const Buffer& b, int64_t e) const;

private:
    struct Byte {
        const Buffer* owner = nullptr;
        NodeId writer = -1;
        bool pending = false;
    };
    // The bytes of element `e` of `b` (dtype_bytes of them), grown on demand.
    Byte* bytes_of(const Buffer& b, int64_t e);

    std::vector<Byte> state_;
};

// True when two SHARED tensors of the BLOCK pfor `block` (with offsets) share bytes.
bool has_aliasing(const event::Op& block);

} // namespace kiln::interp::sim
