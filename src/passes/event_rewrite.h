#pragma once
// Edits of an event program that keep its event graph sound, for the copy-elimination patterns:
// an operation removed from the graph is first retired into a `join` with the same event, the
// same processor dimensions and the same preconditions (so everything that waited on it still
// waits on exactly what it waited on), and a join is later forwarded into its consumers by
// substituting its reference (a broadcast `:` stays a broadcast, a point-wise index becomes the
// consumer's index).
#include "ir/event.h"

#include <functional>
#include <string>
#include <vector>

namespace kiln::passes {

// A reference from an operation running over `consumer_dims` to `producer`'s event: point-wise
// along the producer's dimensions the consumer also runs over, broadcast along the others.
event::EventRef ref_to(const event::Op& producer, const std::vector<event::ProcDim>& consumer_dims);

// What `consumer_ref` (a reference to `join`'s event) becomes when it names `join`'s own
// precondition `target` instead.
event::EventRef substitute_ref(const event::EventRef& consumer_ref, const event::Op& join,
                               const event::EventRef& target);

// Replaces every reference to `id` (in `after` lists and yields) by what `replace` returns.
// A yield takes the first returned reference; callers never return none for a yield.
void replace_refs(
    event::Block& b, const std::string& id,
    const std::function<std::vector<event::EventRef>(const event::EventRef&)>& replace);

// Drops references that an other one of the list implies (a repeat, or a point-wise wait on an
// event the list also waits on along a broadcast).
void dedupe_refs(std::vector<event::EventRef>& refs);

// Turns a copy or call into a join of its preconditions (same event, dimensions and level).
void retire_as_join(event::Op& op, const std::string& why);

// Every use of tensor `from` (copy and call views, partition sources, `mirrors`) names `to`.
void rename_tensor(event::Block& b, const std::string& from, const event::View& to);

// Removes the operation at `op` from `block` (alloc and part only: they define no event).
void erase_op(event::Block& block, const event::Op& op);

} // namespace kiln::passes
