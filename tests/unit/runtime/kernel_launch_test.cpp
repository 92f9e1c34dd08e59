// The TMA rules the launch spec alone decides are checked before anything is compiled: a GEMM
// whose bf16 rows are not a multiple of 16 bytes is refused with the tensor, the stride and the
// fix; ragged sizes whose rows are aligned pass.
#include "generated_example.h"
#include "runtime/kernel_launch.h"

namespace kiln::runtime {
namespace {

TEST(KernelLaunch, RefusesRowStridesTheTmaCannotTake) {
    auto spec = testing::generated_example("gemm", {{"M", 200}, {"N", 300}, {"K", 100}}).spec;
    auto e = check_tensor_maps(spec);
    ASSERT_TRUE(e);
    EXPECT_EQ(e->message, "tensor map of A [200, 100]: the stride of dimension 1 (innermost "
                          "first) is 200 bytes, not a multiple of 16 as the TMA requires (make "
                          "the innermost extent a multiple of 8)");
}

TEST(KernelLaunch, AcceptsRaggedSizesWithAlignedRows) {
    EXPECT_FALSE(check_tensor_maps(
        testing::generated_example("gemm", {{"M", 200}, {"N", 312}, {"K", 104}}).spec));
    EXPECT_FALSE(check_tensor_maps(testing::generated_example("batched_gemm").spec));
}

} // namespace
} // namespace kiln::runtime
