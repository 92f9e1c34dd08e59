#pragma once
// Adding event references to operations, as the passes that insert dependences (warp-specialize,
// pipeline-loops, alloc-smem) need it, with the roles of warp specialization in mind: a
// reference is `cross` exactly when a dma operation and a compute operation meet.
#include "ir/event.h"

#include <cstdint>
#include <set>
#include <string>
#include <vector>

namespace kiln::passes {

// The role whose warps complete `op`'s event: its own, or, for a loop both roles run (`any`),
// the signal role of the operation its body yields (every operation of the body precedes it).
event::Role signal_role(const event::Op& op);

// A reference from an operation of role `consumer` to an event signalled by role `producer`
// synchronizes the two roles (codegen: a shared-memory barrier).
bool crosses(event::Role consumer, event::Role producer);

// Makes `consumer` wait for `ref` (unless it names that event at that distance already), `cross`
// as `crosses` says. When `consumer` is a loop both roles run, the first operations of its body
// (those waiting for nothing else in the body) whose role differs from `producer` get the
// reference too: their warps are the ones that must wait across roles.
void add_wait(event::Op& consumer, event::EventRef ref, event::Role producer);

// add_wait for the event of `producer`, `distance` iterations back. The reference indexes a
// dimension of the producer's event point-wise when its variable is in `pointwise` and the
// consumer runs over the same processor dimension, and broadcasts (`:`, wait for every
// instance) along the others.
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
