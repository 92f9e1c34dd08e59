// warp-specialize (src/passes/warp_specialize.h): the golden cases of
// tests/golden/warp-specialize/.
#include "event_golden.h"
#include "passes/warp_specialize.h"

namespace kiln::passes::testing {
namespace {

TEST(WarpSpecialize, Golden) {
    run_golden_folder("warp-specialize", warp_specialize, 6);
}

} // namespace
} // namespace kiln::passes::testing
