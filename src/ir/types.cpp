#include "ir/types.h"

#include <array>

namespace kiln::ir {
namespace {

template <class E, std::size_t N>
std::optional<E> lookup(const std::array<std::string_view, N>& names, std::string_view s) {
    for (std::size_t i = 0; i < N; ++i)
        if (names[i] == s)
            return static_cast<E>(i);
    return std::nullopt;
}

constexpr std::array<std::string_view, 6> kDTypes{"f32", "f16", "bf16", "f8e4m3", "f8e5m2", "i32"};
constexpr std::array<std::string_view, 5> kPrivileges{"read", "write", "rw", "reduce(+)",
                                                      "reduce(max)"};
constexpr std::array<std::string_view, 5> kLevels{"HOST", "BLOCK", "WARPGROUP", "WARP", "THREAD"};
constexpr std::array<std::string_view, 4> kMemories{"GLOBAL", "SHARED", "REGISTER", "NONE"};
constexpr std::array<std::string_view, 5> kRoles{"acc", "lhs", "rhs", "rhs_t", "row"};

} // namespace

std::string_view spelling(DType t) { return kDTypes[static_cast<int>(t)]; }
std::string_view spelling(Privilege p) { return kPrivileges[static_cast<int>(p)]; }
std::string_view spelling(Level l) { return kLevels[static_cast<int>(l)]; }
std::string_view spelling(Memory m) { return kMemories[static_cast<int>(m)]; }
std::string_view spelling(MmaRole r) { return kRoles[static_cast<int>(r)]; }

std::optional<DType> parse_dtype(std::string_view s) { return lookup<DType>(kDTypes, s); }
std::optional<Level> parse_level(std::string_view s) { return lookup<Level>(kLevels, s); }
std::optional<Memory> parse_memory(std::string_view s) { return lookup<Memory>(kMemories, s); }
std::optional<MmaRole> parse_mma_role(std::string_view s) { return lookup<MmaRole>(kRoles, s); }

int dtype_bytes(DType t) {
    switch (t) {
    case DType::F32:
    case DType::I32:
        return 4;
    case DType::F16:
    case DType::BF16:
        return 2;
    case DType::F8E4M3:
    case DType::F8E5M2:
        return 1;
    }
    return 0;
}

bool is_float(DType t) { return t != DType::I32; }

bool privilege_reads(Privilege p) { return p == Privilege::Read || p == Privilege::ReadWrite; }
bool privilege_writes(Privilege p) { return p == Privilege::Write || p == Privilege::ReadWrite; }
bool privilege_reduces(Privilege p) {
    return p == Privilege::ReduceAdd || p == Privilege::ReduceMax;
}

bool privilege_allows(Privilege parent, Privilege child) {
    switch (parent) {
    case Privilege::ReadWrite:
        return true;
    case Privilege::Write:
        // A writer owns the data it produces: it may read back what it (or a child) wrote.
        return true;
    case Privilege::Read:
        return child == Privilege::Read;
    case Privilege::ReduceAdd:
    case Privilege::ReduceMax:
        return child == parent;
    }
    return false;
}

} // namespace kiln::ir
