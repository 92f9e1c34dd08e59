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

std::string_view spelling(Layout l) { return kLayouts[static_cast<int>(l)]; }

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
const Instance* Mapping::find_instance(const std::string& n) const {
    return find_by(instances, &Instance::name, n);
}

} // namespace kiln::mapping
