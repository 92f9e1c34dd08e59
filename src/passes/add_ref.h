#pragma once
// Adding an event reference to an operation, as the passes that insert dependences
// (alloc-smem, pipeline-loops) need it.
#include "ir/event.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

// Makes `consumer` wait for `producer`'s event (`distance` iterations back), unless it already
// names that event at that distance. The reference indexes a dimension of the producer's event
// point-wise when its variable is in `pointwise` and the consumer runs over the same processor
// dimension, and broadcasts (`:`, wait for every instance) along the others. It is `cross` when
// the two operations run in different roles (after warp specialization).
void add_ref(event::Op& consumer, const event::Op& producer, int64_t distance,
             const std::set<std::string>& pointwise = {});

// A reference decided by an analysis that points into a program, applied once it is done.
struct PendingRef {
    const event::Op* consumer;
    const event::Op* producer;
    int64_t distance = 0;
    std::set<std::string> pointwise;
};

// Applies `refs` to the operations of `block` they point to (add_ref, in order).
void add_refs(event::Block& block, const std::vector<PendingRef>& refs);

} // namespace kiln::passes
