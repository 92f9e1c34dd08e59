#include "mapping/mapping.h"

#include <array>

namespace kiln::mapping {
namespace {
constexpr std::array<std::string_view, 5> kLayouts{"row_major", "col_major", "swizzle32",
                                                   "swizzle64", "swizzle128"};

template <class T> const T* find_by(const std::vector<T>& v, auto key, const std::string& n) {
    for (const auto& x : v)
        if (x.*key == n)
            return &x;
    return nullptr;
}
} // namespace

std::string_view spelling(Layout l) {
    return kLayouts[static_cast<int>(l)];
}

std::optional<Layout> parse_layout(std::string_view s) {
    for (std::size_t i = 0; i < kLayouts.size(); ++i)
        if (kLayouts[i] == s)
            return static_cast<Layout>(i);
    return std::nullopt;
}

std::string_view spelling(SchedulePolicy s) {
    return s == SchedulePolicy::Manual ? "manual" : "optimal";
}

const MemBinding* Instance::find_mem(const std::string& t) const {
    return find_by(mems, &MemBinding::tensor, t);
}
const TunableBinding* Instance::find_tunable(const std::string& n) const {
    return find_by(tunables, &TunableBinding::name, n);
}
const DispatchBinding* Instance::find_dispatch(const std::string& s) const {
    return find_by(dispatch, &DispatchBinding::site, s);
}
std::string cluster_rule_violation(const Instance& i) {
    const std::string who = "instance '" + i.name + "': cluster = " + std::to_string(i.cluster);
    if (i.cluster != 1 && i.cluster != 2)
        return who + " is not supported (clusters of 1 or 2 CTAs)";
    if (i.cluster == 1)
        return "";
    if (i.level != ir::Level::Block)
        return who + " needs a BLOCK instance (clusters group thread blocks)";
    if (!i.warpspecialize || !i.persistent)
        return who + " needs `warpspecialize` and `persistent` on the same instance (the pair's "
                     "DMA roles multicast into each other's pipeline, tile after tile)";
    return "";
}

std::string set_cluster(Mapping& m, int64_t n) {
    Mapping out = m;
    bool found = false;
    for (auto& i : out.instances) {
        if (i.level != ir::Level::Block || !i.warpspecialize)
            continue;
        found = true;
        i.cluster = n;
        if (std::string why = cluster_rule_violation(i); !why.empty())
            return why;
    }
    if (!found)
        return "cluster = " + std::to_string(n) +
               ": the mapping has no warp-specialized BLOCK "
               "instance to cluster";
    m = std::move(out);
    return "";
}

const Instance* Mapping::find_instance(const std::string& n) const {
    return find_by(instances, &Instance::name, n);
}

} // namespace kiln::mapping
