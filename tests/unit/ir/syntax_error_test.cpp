// Malformed input gives exactly one diagnostic whose full text (file:line:col and message) is
// pinned here.
#include "ir/parser.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

struct BadInput {
    const char* name;
    std::string text;
    std::string error;
};

std::string repeat(const std::string& s, int n) {
    std::string out;
    for (int i = 0; i < n; ++i)
        out += s;
    return out;
}

// Shared by several cases: a task and an inner variant to put statements into.
const std::string kTask = "task t(C: rw f32[M, N], A: read bf16[M, K])\n";
std::string inner(const std::string& stmts) {
    return kTask + "variant v of t inner {\n" + stmts + "}\n";
}
std::string leaf(const std::string& stmts) {
    return kTask + "variant v of t leaf {\n" + stmts + "}\n";
}
std::string instance(const std::string& attrs) {
    return "mapping {\n  instance i : v @ BLOCK {\n" + attrs + "  }\n}\n";
}

std::vector<BadInput> bad_inputs() {
    return {
        {"unknown_dtype", "task t(A: read bf17[M])\n",
         "bad.kiln:1:16: error: unknown dtype 'bf17' (expected one of f32, f16, bf16, f8e4m3, "
         "f8e5m2, i32)"},
        {"unknown_scalar_type", "task t(A: read f32[M], s: u8)\n",
         "bad.kiln:1:27: error: unknown dtype 'u8' (expected one of f32, f16, bf16, f8e4m3, "
         "f8e5m2, i32)"},
        {"unknown_privilege", "task t(A: readonly f32[M])\n",
         "bad.kiln:1:11: error: unknown privilege 'readonly' (expected one of read, write, rw, "
         "reduce(+), reduce(max))"},
        {"unknown_reduction", "task t(A: reduce(min) f32[M])\n",
         "bad.kiln:1:11: error: unknown privilege 'reduce(min)' (expected one of read, write, "
         "rw, reduce(+), reduce(max))"},
        {"tensor_without_privilege", "task t(A: f32[M])\n",
         "bad.kiln:1:11: error: tensor parameter 'A' needs a privilege (read, write, rw, "
         "reduce(+), reduce(max)) before its dtype"},
        {"tile_bracket", inner("  let Cp = blocks(C, [M, N)\n"),
         "bad.kiln:3:27: error: expected ']' after tile dimensions, found ')'"},
        {"unknown_level", "mapping {\n  instance i : v @ CLUSTER {\n  }\n}\n",
         "bad.kiln:2:20: error: unknown processor level 'CLUSTER' (expected one of HOST, BLOCK, "
         "WARPGROUP, WARP, THREAD)"},
        {"unknown_memory", instance("    mem C = GLOBAL, A = L2\n"),
         "bad.kiln:3:25: error: unknown memory 'L2' (expected one of GLOBAL, SHARED, REGISTER, "
         "NONE)"},
        {"unknown_layout", instance("    layout A = swizzle256\n"),
         "bad.kiln:3:16: error: unknown layout 'swizzle256' (expected one of row_major, "
         "col_major, swizzle32, swizzle64, swizzle128)"},
        {"unknown_leaf_op", leaf("  matmul(C, A, A)\n"),
         "bad.kiln:3:3: error: unknown leaf operation 'matmul'"},
        {"leaf_op_arity", leaf("  copy(C)\n"),
         "bad.kiln:3:3: error: leaf operation 'copy' takes 2 operands, found 1"},
        {"duplicate_task", kTask + "\ntask t(C: rw f32[M])\n",
         "bad.kiln:3:1: error: duplicate task 't' (first defined at bad.kiln:1:1)"},
        {"duplicate_variant", leaf("  copy(C, A)\n") + "variant v of t leaf {\n}\n",
         "bad.kiln:5:1: error: duplicate variant 'v' (first defined at bad.kiln:2:1)"},
        {"duplicate_instance",
         "mapping {\n  instance i : v @ HOST {\n  }\n  instance i : w @ BLOCK {\n  }\n}\n",
         "bad.kiln:4:3: error: duplicate instance 'i' (first defined at bad.kiln:2:3)"},
        {"duplicate_parameter", "task t(A: read f32[M], B: read f32[M], A: i32)\n",
         "bad.kiln:1:40: error: duplicate parameter 'A' in task 't' (first defined at "
         "bad.kiln:1:8)"},
        {"duplicate_mem_binding", instance("    mem C = GLOBAL\n    mem C = SHARED\n"),
         "bad.kiln:4:9: error: duplicate mem binding for 'C' in instance 'i' (first at "
         "bad.kiln:3:9)"},
        {"launch_in_leaf", leaf("  launch t(C, A)\n"),
         "bad.kiln:3:3: error: launch is not allowed in a leaf variant"},
        {"leaf_op_in_inner", inner("  fill(C, 0.0)\n"),
         "bad.kiln:3:3: error: leaf operation 'fill' is not allowed in an inner variant"},
        {"missing_separator", inner("  launch t(C, A) launch t(C, A)\n"),
         "bad.kiln:3:18: error: expected newline or ';' after launch of 't', found 'launch'"},
        {"unclosed_block", inner("  srange k in [4] {\n"),
         "bad.kiln:5:1: error: expected '}' to close the block opened at bad.kiln:2:22, found "
         "end of file"},
        {"variant_without_brace", kTask + "variant v of t inner\n  launch t(C, A)\n}\n",
         "bad.kiln:3:3: error: expected '{' after 'variant v of t inner', found 'launch'"},
        {"limit_on_a_prange", inner("  prange i in [4] limit 2 {\n  }\n"),
         "bad.kiln:3:19: error: 'limit' needs a one-variable srange; this is a prange over 1 "
         "variable(s)"},
        {"limit_on_two_variables", inner("  srange (i, j) in [4, 4] limit 2 {\n  }\n"),
         "bad.kiln:3:27: error: 'limit' needs a one-variable srange; this is a srange over 2 "
         "variable(s)"},
        {"loop_domain_not_a_grid", inner("  prange i in C.grid[0] {\n  }\n"),
         "bad.kiln:3:21: error: expected '{' after the loop domain, found '['"},
        {"mma_n_below_warpgroup", inner("  let Cw = mma(C, acc, WARP, 64)\n"),
         "bad.kiln:3:30: error: the instruction N of an mma partition is given at WARPGROUP "
         "level only"},
        {"duplicate_entry", "mapping {\n  entry a\n  entry b\n}\n",
         "bad.kiln:3:3: error: duplicate entry (first at bad.kiln:2:3)"},
        {"unknown_task_of_variant", "variant v of nosuch leaf {\n}\n",
         "bad.kiln:1:14: error: variant 'v' is of unknown task 'nosuch'"},
        {"mma_warpgroup_without_n", inner("  let Cg = mma(C, acc, WARPGROUP)\n"),
         "bad.kiln:3:33: error: an mma partition at WARPGROUP level needs the instruction N, "
         "e.g. mma(C, acc, WARPGROUP, 256)"},
        {"unknown_attribute", instance("    stages = 3\n"),
         "bad.kiln:3:5: error: unknown instance attribute 'stages' (expected mem, tunable, "
         "dispatch, layout, warpspecialize, pipeline, smem_limit, schedule, persistent or "
         "cluster)"},
        {"unexpected_character", inner("  let x = 3 $ 4\n"),
         "bad.kiln:3:13: error: unexpected character '$'"},
        {"unterminated_string", leaf("  call_external(\"fn, C)\n"),
         "bad.kiln:3:17: error: unterminated string"},
        {"integer_too_large", "sizes M = 99999999999999999999\n",
         "bad.kiln:1:11: error: integer literal '99999999999999999999' is too large"},
        {"unknown_function", inner("  let x = floor(3, 4)\n"),
         "bad.kiln:3:11: error: unknown function 'floor' (expected ceildiv, min or max)"},
        {"not_a_declaration", "let x = 3\n",
         "bad.kiln:1:1: error: expected a declaration (program, sizes, reference, task, variant "
         "or mapping), found 'let'"},
        {"deep_parentheses", inner("  let x = " + repeat("(", 300) + "1" + repeat(")", 300) + "\n"),
         "bad.kiln:3:210: error: nesting too deep (more than 200 levels)"},
        {"long_operator_chain", inner("  let x = 1" + repeat(" + 1", 300) + "\n"),
         "bad.kiln:3:809: error: nesting too deep (more than 200 levels)"},
        {"deep_loops", inner(repeat("srange k in [2] {\n", 250) + repeat("}\n", 250)),
         "bad.kiln:202:17: error: nesting too deep (more than 200 levels)"},
    };
}

TEST(SyntaxErrors, ExactMessages) {
    for (const auto& c : bad_inputs()) {
        SCOPED_TRACE(c.name);
        auto p = parse_program(c.text, "bad.kiln");
        ASSERT_FALSE(p.ok()) << "parsed without error:\n" << c.text;
        ASSERT_EQ(p.errors().size(), 1u);
        EXPECT_EQ(p.errors()[0].str(), c.error);
    }
}

} // namespace
} // namespace kiln::ir
