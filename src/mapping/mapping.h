#pragma once
// The mapping specification (Cypress §3.3): named instances that bind a task variant to a
// processor level, each tensor to a memory, tunables to values and launch sites to instances,
// plus the performance controls. A mapping never changes a program's result.
#include "ir/diagnostic.h"
#include "ir/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kiln::mapping {

enum class Layout { RowMajor, ColMajor, Swizzle32, Swizzle64, Swizzle128 };
enum class SchedulePolicy { Manual, Optimal };

std::string_view spelling(Layout l);
std::optional<Layout> parse_layout(std::string_view s);
std::string_view spelling(SchedulePolicy s);

struct MemBinding {
    std::string tensor; // a parameter or a tensor created in the variant
    ir::Memory memory = ir::Memory::Global;
    Loc loc;
};

struct TunableBinding {
    std::string name;
    int64_t value = 0;
    Loc loc;
};

// dispatch SITE -> INSTANCE: SITE is a launch label or the launched task's name.
struct DispatchBinding {
    std::string site;
    std::string instance;
    Loc loc;
};

struct LayoutBinding {
    std::string tensor;
    Layout layout = Layout::RowMajor;
    Loc loc;
};

struct Instance {
    std::string name;
    std::string variant;
    ir::Level level = ir::Level::Host;
    std::vector<MemBinding> mems;
    std::vector<TunableBinding> tunables;
    std::vector<DispatchBinding> dispatch;
    std::vector<LayoutBinding> layouts;
    bool warpspecialize = false;
    std::optional<int64_t> pipeline;   // software-pipelining depth of this instance's srange loops
    std::optional<int64_t> smem_limit; // bytes
    SchedulePolicy schedule = SchedulePolicy::Manual;
    bool persistent = false;
    // CTAs per thread-block cluster (1 or 2): a pair takes two row-adjacent tiles and multicasts
    // the operand tile they share (docs/codegen.md). Needs `warpspecialize` and `persistent`.
    int64_t cluster = 1;
    Loc loc;

    const MemBinding* find_mem(const std::string& tensor) const;
    const TunableBinding* find_tunable(const std::string& n) const;
    const DispatchBinding* find_dispatch(const std::string& site) const;
};

// Why `cluster` cannot apply to instance `i` ("" when it can): the value must be 1 or 2, and a
// cluster of 2 needs a warp-specialized, persistent BLOCK instance.
std::string cluster_rule_violation(const Instance& i);

struct Mapping {
    std::vector<Instance> instances;
    std::string entry;
    Loc entry_loc;
    Loc loc;
    const Instance* find_instance(const std::string& n) const;
};

// Sets `cluster = n` on every warp-specialized BLOCK instance of `m` (`kiln compile --cluster`):
// "" when it did, else why not (no such instance, or cluster_rule_violation's reason); `m` is
// unchanged then.
std::string set_cluster(Mapping& m, int64_t n);

} // namespace kiln::mapping
