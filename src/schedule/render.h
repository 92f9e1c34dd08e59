#pragma once
// Human-readable forms of a schedule. All three draw the straight-line program Q: ceil(L/II)
// copies of one iteration, copy i shifted by i*II, cut into prologue [0, (c-1)*II), steady
// state [(c-1)*II, c*II) and epilogue [c*II, (c-1)*II + L).
#include "loop_graph.h"
#include "schedule.h"

#include <string>

namespace kiln::schedule {

// Summary, per-op table (cycle, stage, slot, warps, lifetime), per-warp registers, and Q's
// issue list section by section.
std::string render_text(const LoopGraph &g, const Schedule &s);
// One row per warp and per unit, one 2-character cell per cycle ("A1": op A of copy 1).
std::string render_ascii(const LoopGraph &g, const Schedule &s);
std::string render_svg(const LoopGraph &g, const Schedule &s);

} // namespace kiln::schedule
