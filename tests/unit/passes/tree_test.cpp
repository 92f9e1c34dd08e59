// The task tree of examples/gemm.kiln: structure, levels, memories, shapes, extents.
#include "test_util.h"

namespace kiln::passes::testing {
namespace {

TEST(GemmTree, Prints) {
    auto p = gemm_example();
    auto tree = instantiate(p, {{"M", 200}, {"N", 300}, {"K", 100}});
    ASSERT_TRUE(tree.ok()) << tree.error_text();
    std::cout << print_tree(*tree);
}

} // namespace
} // namespace kiln::passes::testing
