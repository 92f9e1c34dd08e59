// The builder and the text syntax are two spellings of one IR: building examples/gemm.kiln in C++
// must print exactly what parsing the file prints.
#include "ir/parser.h"
#include "ir/printer.h"
#include "kiln/builder.h"

#include <gtest/gtest.h>

namespace {

using namespace kiln;
using mapping::Layout;

// The three decompositions below the block (rows over warpgroups, warps, lanes) are the same
// for every task of the example; only the operands differ.
struct Operand {
    const char* param;
    const char* piece;
    MmaRole role; // mma role below the warpgroup
    bool split_rows; // split between warpgroups (false: every warpgroup reads all of it)
};

void add_row_split(Builder& b, const std::string& variant, const std::string& task,
                   const std::vector<Operand>& ops) {
    auto v = b.inner(variant, task);
    v.tunable({"G"});
    std::vector<ir::Operand> args;
    for (const auto& op : ops) {
        if (!op.split_rows) {
            args.push_back(T(op.param));
            continue;
        }
        v.blocks(op.piece, op.param, {E("M") / E("G"), op.param[0] == 'A' ? "K" : "N"});
        args.push_back(T(op.piece, {E("g"), 0}));
    }
    v.prange({"g"}, {E("G")}, [&](BodyBuilder& body) { body.launch(task, args); });
}

void add_mma_split(Builder& b, const std::string& variant, const std::string& task,
                   const std::vector<Operand>& ops, Level level, const char* var, int count) {
    auto v = b.inner(variant, task);
    std::vector<ir::Operand> args;
    for (const auto& op : ops) {
        v.mma(op.piece, op.param, op.role, level);
        args.push_back(T(op.piece, {E(var)}));
    }
    v.prange({var}, {count}, [&](BodyBuilder& body) { body.launch(task, args); });
}

void add_decomposition(Builder& b, const std::string& task, const std::vector<Operand>& ops) {
    add_row_split(b, task + "_rows", task, ops);
    add_mma_split(b, task + "_warps", task, ops, Level::Warp, "w", 4);
    add_mma_split(b, task + "_lanes", task, ops, Level::Thread, "t", 32);
}

ir::Program build_gemm() {
    Builder b("gemm");
    b.sizes({{"M", 256}, {"N", 512}, {"K", 192}});
    b.reference("gemm", {"C", "A", "B"});
    b.task("matmul", {write("C", DType::BF16, {"M", "N"}), read("A", DType::BF16, {"M", "K"}),
                      read("B", DType::BF16, {"K", "N"})});
    b.task("clear", {write("C", DType::F32, {"M", "N"})});
    b.task("gemm", {rw("C", DType::F32, {"M", "N"}), read("A", DType::BF16, {"M", "K"}),
                    read("B", DType::BF16, {"K", "N"})});
    b.task("store", {write("D", DType::BF16, {"M", "N"}), read("S", DType::F32, {"M", "N"})});

    b.inner("matmul_host", "matmul")
        .tunable({"U", "V"})
        .blocks("Cp", "C", {"U", "V"}, true)
        .blocks("Ap", "A", {"U", "K"}, true)
        .blocks("Bp", "B", {"K", "V"}, true)
        .prange_grid({"i", "j"}, "Cp", [](BodyBuilder& body) {
            body.launch("matmul", {T("Cp", {"i", "j"}), T("Ap", {"i", 0}), T("Bp", {0, "j"})});
        });
    b.inner("matmul_block", "matmul")
        .tunable({"W"})
        .tensor("acc", DType::F32, {"M", "N"})
        .launch("clear", {T("acc")})
        .blocks("Ap", "A", {"M", "W"}, true)
        .blocks("Bp", "B", {"W", "N"}, true)
        .srange({"k"}, {grid("Ap", 1)},
                [](BodyBuilder& body) {
                    body.launch("gemm", {T("acc"), T("Ap", {0, "k"}), T("Bp", {"k", 0})});
                })
        .launch("store", {T("C"), T("acc")});

    const std::vector<Operand> gemm_ops = {{"C", "Cp", MmaRole::Acc, true},
                                           {"A", "Ap", MmaRole::Lhs, true},
                                           {"B", "Bp", MmaRole::Rhs, false}};
    add_row_split(b, "gemm_rows", "gemm", gemm_ops);
    add_mma_split(b, "gemm_warps", "gemm", gemm_ops, Level::Warp, "w", 4);
    add_mma_split(b, "gemm_lanes", "gemm", gemm_ops, Level::Thread, "t", 32);
    b.leaf("gemm_leaf", "gemm").op("mma", {T("C"), T("A"), T("B")});
    add_decomposition(b, "clear", {{"C", "Cp", MmaRole::Acc, true}});
    b.leaf("clear_leaf", "clear").op("fill", {T("C"), S(0.0)});
    add_decomposition(b, "store",
                      {{"D", "Dp", MmaRole::Acc, true}, {"S", "Sp", MmaRole::Acc, true}});
    b.leaf("store_leaf", "store").op("copy", {T("D"), T("S")});

    b.instance("gemm_host", "matmul_host", Level::Host)
        .mem({{"C", Memory::Global}, {"A", Memory::Global}, {"B", Memory::Global}})
        .tunable({{"U", 128}, {"V", 256}})
        .dispatch({{"matmul", "gemm_block"}});
    b.instance("gemm_block", "matmul_block", Level::Block)
        .mem({{"C", Memory::Global},
              {"A", Memory::Global},
              {"B", Memory::Global},
              {"acc", Memory::None}})
        .tunable({{"W", 64}})
        .dispatch({{"clear", "clear_block"}, {"gemm", "gemm_tile"}, {"store", "store_block"}})
        .warpspecialize()
        .pipeline(4)
        .smem_limit(227 * 1024)
        .persistent();
    const std::vector<std::pair<std::string, Memory>> operands_in_smem = {
        {"C", Memory::None}, {"A", Memory::Shared}, {"B", Memory::Shared}};
    b.instance("gemm_tile", "gemm_rows", Level::Block)
        .mem(operands_in_smem)
        .tunable({{"G", 2}})
        .dispatch({{"gemm", "gemm_wg"}})
        .layout({{"A", Layout::Swizzle128}, {"B", Layout::Swizzle128}});
    b.instance("gemm_wg", "gemm_warps", Level::Warpgroup)
        .mem(operands_in_smem)
        .dispatch({{"gemm", "gemm_warp"}});
    b.instance("gemm_warp", "gemm_lanes", Level::Warp)
        .mem(operands_in_smem)
        .dispatch({{"gemm", "gemm_thread"}});
    b.instance("gemm_thread", "gemm_leaf", Level::Thread)
        .mem({{"C", Memory::Register}, {"A", Memory::Shared}, {"B", Memory::Shared}});

    // clear and store go down the same levels with the accumulator only in registers.
    struct Chain {
        std::string task;
        std::vector<std::pair<std::string, Memory>> above, leaf;
    };
    for (const Chain& c :
         {Chain{"clear", {{"C", Memory::None}}, {{"C", Memory::Register}}},
          Chain{"store",
                {{"D", Memory::Global}, {"S", Memory::None}},
                {{"D", Memory::Global}, {"S", Memory::Register}}}}) {
        b.instance(c.task + "_block", c.task + "_rows", Level::Block)
            .mem(c.above)
            .tunable({{"G", 2}})
            .dispatch({{c.task, c.task + "_wg"}});
        b.instance(c.task + "_wg", c.task + "_warps", Level::Warpgroup)
            .mem(c.above)
            .dispatch({{c.task, c.task + "_warp"}});
        b.instance(c.task + "_warp", c.task + "_lanes", Level::Warp)
            .mem(c.above)
            .dispatch({{c.task, c.task + "_thread"}});
        b.instance(c.task + "_thread", c.task + "_leaf", Level::Thread).mem(c.leaf);
    }
    b.entry("gemm_host");
    return b.build();
}

TEST(Builder, GemmExampleMatchesText) {
    auto parsed = kiln::ir::parse_file(std::string(KILN_SOURCE_DIR) + "/examples/gemm.kiln");
    ASSERT_TRUE(parsed.ok()) << parsed.error_text();
    EXPECT_EQ(kiln::ir::print_program(build_gemm()), kiln::ir::print_program(*parsed));
}

TEST(Builder, ReferencesStayValidAsVariantsGrow) {
    Builder b("p");
    b.task("t", {write("X", DType::F32, {"N"})});
    auto first = b.leaf("first", "t");
    for (int i = 0; i < 100; ++i)
        b.leaf("v" + std::to_string(i), "t");
    first.op("fill", {T("X"), S(1.0)});
    auto p = b.build();
    ASSERT_EQ(p.variants.front().name, "first");
    EXPECT_EQ(p.variants.front().body.size(), 1u);
}

} // namespace
