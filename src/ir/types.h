#pragma once
// The small closed vocabularies of the language: element types, privileges, processor levels,
// memories and Tensor Core operand roles. Each has a spelling used by the printer and parser.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kiln::ir {

enum class DType { F32, F16, BF16, F8E4M3, F8E5M2, I32 };
enum class Privilege { Read, Write, ReadWrite, ReduceAdd, ReduceMax };
// Ordered from the outermost to the innermost processor.
enum class Level { Host, Block, Warpgroup, Warp, Thread };
enum class Memory { Global, Shared, Register, None };
// How an `mma` partition splits a tensor for the wgmma m64nNk16 instructions:
// acc = accumulator C [M,N]; lhs = A [M,K]; rhs = B [K,N]; rhs_t = B stored [N,K];
// row = a per-row vector [M] co-partitioned with the accumulator's rows.
enum class MmaRole { Acc, Lhs, Rhs, RhsT, Row };
// What a blocks partition does with a dimension that the tile does not divide.
enum class Remainder { Exact, Pad };

std::string_view spelling(DType t);
std::string_view spelling(Privilege p);
std::string_view spelling(Level l);
std::string_view spelling(Memory m);
std::string_view spelling(MmaRole r);

std::optional<DType> parse_dtype(std::string_view s);
std::optional<Level> parse_level(std::string_view s);
std::optional<Memory> parse_memory(std::string_view s);
std::optional<MmaRole> parse_mma_role(std::string_view s);

int dtype_bytes(DType t);
bool is_float(DType t);

// Privilege algebra (Cypress §3.2): what a task holding `p` may do to the tensor.
bool privilege_reads(Privilege p);
bool privilege_writes(Privilege p);
bool privilege_reduces(Privilege p);
// May a task holding `parent` launch a child that asks for `child` on the same data?
bool privilege_allows(Privilege parent, Privilege child);

} // namespace kiln::ir
