// The task tree of examples/gemm.kiln: structure, levels, memories, shapes, loop extents, and
// the exact `kiln tree` text (tests/golden/tree/gemm.txt; KILN_UPDATE_GOLDEN=1 rewrites it).
#include "test_util.h"

#include <cstdlib>

namespace kiln::passes::testing {
namespace {

using ir::DType;
using ir::Level;
using ir::Memory;
using ir::Privilege;
using ir::Shape;

const TaskNode &node(const TaskTree &tree, const std::string &instance) {
    for (const TaskNode *n : preorder(tree.root))
        if (n->instance == instance)
            return *n;
    ADD_FAILURE() << "no node for instance " << instance;
    return tree.root;
}

void expect_tensor(const TaskNode &n, const std::string &param, Memory m, DType t, Shape s,
                   Privilege p) {
    const TensorArg *a = n.find_tensor(param);
    ASSERT_NE(a, nullptr) << n.instance << "." << param;
    EXPECT_EQ(a->memory, m) << n.instance << "." << param;
    EXPECT_EQ(a->dtype, t) << n.instance << "." << param;
    EXPECT_EQ(a->shape, s) << n.instance << "." << param;
    EXPECT_EQ(a->privilege, p) << n.instance << "." << param;
}

// "prange (i, j) [2, 2]" for each loop around the node's launch site.
std::vector<std::string> loops_of(const TaskNode &n) {
    std::vector<std::string> out;
    for (const auto &l : n.loops) {
        std::string vars;
        for (const auto &v : l.vars)
            vars += (vars.empty() ? "" : ", ") + v;
        out.push_back(std::string(l.parallel ? "prange" : "srange") + " (" + vars + ") " +
                      ir::shape_string(l.extents));
    }
    return out;
}

TaskTree gemm_tree(const ir::Program &p, const Sizes &sizes = {}) {
    auto tree = instantiate(p, sizes);
    EXPECT_TRUE(tree.ok()) << tree.error_text();
    return tree.ok() ? std::move(tree).value() : TaskTree{};
}

TEST(GemmTree, OneNodePerSiteAndInstanceInProgramOrder) {
    auto p = gemm_example();
    auto tree = gemm_tree(p);
    std::vector<std::string> instances;
    for (const TaskNode *n : preorder(tree.root))
        instances.push_back(n->instance);
    EXPECT_EQ(instances, (std::vector<std::string>{
                             "gemm_host", "gemm_block", "clear_block", "clear_wg", "clear_warp",
                             "clear_thread", "gemm_tile", "gemm_wg", "gemm_warp", "gemm_thread",
                             "store_block", "store_wg", "store_warp", "store_thread"}));
    EXPECT_EQ(tree.sizes, (Sizes{{"M", 256}, {"N", 512}, {"K", 192}}));
}

TEST(GemmTree, LevelsMemoriesAndShapesAtDefaultSizes) {
    auto p = gemm_example();
    auto tree = gemm_tree(p);
    const TaskNode &host = tree.root;
    EXPECT_EQ(host.level, Level::Host);
    EXPECT_EQ(host.tunables, (Sizes{{"U", 128}, {"V", 256}}));
    expect_tensor(host, "C", Memory::Global, DType::BF16, {256, 512}, Privilege::Write);
    expect_tensor(host, "B", Memory::Global, DType::BF16, {192, 512}, Privilege::Read);
    ASSERT_NE(host.find_partition("Cp"), nullptr);
    EXPECT_EQ(host.find_partition("Cp")->shape.grid, (Shape{2, 2}));

    const TaskNode &block = node(tree, "gemm_block");
    EXPECT_EQ(block.level, Level::Block);
    EXPECT_EQ(loops_of(block), (std::vector<std::string>{"prange (i, j) [2, 2]"}));
    expect_tensor(block, "C", Memory::Global, DType::BF16, {128, 256}, Privilege::Write);
    const TensorArg &c = *block.find_tensor("C");
    EXPECT_EQ(c.source.tensor, "C");
    EXPECT_EQ(c.source.partition, "Cp");
    ASSERT_EQ(c.source.indices.size(), 2u);
    EXPECT_EQ(ir::to_string(c.source.indices[1]), "j");
    ASSERT_NE(block.find_created("acc"), nullptr);
    EXPECT_EQ(block.find_created("acc")->memory, Memory::None);
    EXPECT_EQ(block.find_created("acc")->shape, (Shape{128, 256}));

    const TaskNode &tile = node(tree, "gemm_tile");
    EXPECT_EQ(loops_of(tile), (std::vector<std::string>{"srange (k) [3]"}));
    expect_tensor(tile, "C", Memory::None, DType::F32, {128, 256}, Privilege::ReadWrite);
    expect_tensor(tile, "A", Memory::Shared, DType::BF16, {128, 64}, Privilege::Read);
    EXPECT_TRUE(node(tree, "clear_block").loops.empty()); // inline

    const TaskNode &thread = node(tree, "gemm_thread");
    EXPECT_EQ(thread.level, Level::Thread);
    EXPECT_TRUE(thread.leaf);
    EXPECT_EQ(loops_of(thread), (std::vector<std::string>{"prange (t) [32]"}));
    expect_tensor(thread, "C", Memory::Register, DType::F32, {2, 64}, Privilege::ReadWrite);
    expect_tensor(thread, "A", Memory::Shared, DType::BF16, {2, 64}, Privilege::Read);
    expect_tensor(thread, "B", Memory::Shared, DType::BF16, {64, 64}, Privilege::Read);
    EXPECT_EQ(thread.symbols, (Sizes{{"M", 2}, {"N", 64}, {"K", 64}}));
    EXPECT_EQ(loops_of(node(tree, "gemm_wg")), (std::vector<std::string>{"prange (g) [2]"}));
    EXPECT_EQ(loops_of(node(tree, "gemm_warp")), (std::vector<std::string>{"prange (w) [4]"}));
}

// Pad keeps full tile shapes: below the host every node sees the same shapes as for multiples,
// only grids and loop extents change.
TEST(GemmTree, NonMultipleSizesArePadded) {
    auto p = gemm_example();
    auto tree = gemm_tree(p, {{"M", 200}, {"N", 300}, {"K", 100}});
    expect_tensor(tree.root, "A", Memory::Global, DType::BF16, {200, 100}, Privilege::Read);
    EXPECT_EQ(tree.root.find_partition("Cp")->shape.grid, (Shape{2, 2}));
    const TaskNode &block = node(tree, "gemm_block");
    expect_tensor(block, "A", Memory::Global, DType::BF16, {128, 100}, Privilege::Read);
    expect_tensor(block, "B", Memory::Global, DType::BF16, {100, 256}, Privilege::Read);
    const TaskNode &tile = node(tree, "gemm_tile");
    EXPECT_EQ(loops_of(tile), (std::vector<std::string>{"srange (k) [2]"}));
    expect_tensor(tile, "A", Memory::Shared, DType::BF16, {128, 64}, Privilege::Read);
    expect_tensor(node(tree, "gemm_thread"), "C", Memory::Register, DType::F32, {2, 64},
                  Privilege::ReadWrite);
}

TEST(GemmTree, SizesOverrideTheProgramsDefaults) {
    auto p = gemm_example();
    auto tree = gemm_tree(p, {{"K", 1024}});
    EXPECT_EQ(tree.sizes, (Sizes{{"M", 256}, {"N", 512}, {"K", 1024}}));
    EXPECT_EQ(loops_of(node(tree, "gemm_tile")), (std::vector<std::string>{"srange (k) [16]"}));
}

TEST(GemmTree, GoldenText) {
    auto p = gemm_example();
    std::string text = print_tree(gemm_tree(p));
    std::string path = source_path("tests/golden/tree/gemm.txt");
    if (std::getenv("KILN_UPDATE_GOLDEN")) {
        std::ofstream(path) << text;
        GTEST_SKIP() << "rewrote " << path;
    }
    EXPECT_EQ(text, read_text(path));
}

TEST(GemmTree, PrintingIsDeterministic) {
    auto p = gemm_example();
    EXPECT_EQ(print_tree(gemm_tree(p)), print_tree(gemm_tree(p)));
}

} // namespace
} // namespace kiln::passes::testing
