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
    Loc loc;

    const MemBinding* find_mem(const std::string& tensor) const;
    const TunableBinding* find_tunable(const std::string& n) const;
    const DispatchBinding* find_dispatch(const std::string& site) const;
};

struct Mapping {
    std::vector<Instance> instances;
    std::string entry;
    Loc entry_loc;
    Loc loc;
    const Instance* find_instance(const std::string& n) const;
};

} // namespace kiln::mapping
