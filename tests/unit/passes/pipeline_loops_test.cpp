// pipeline-loops (src/passes/pipeline_loops.h): the golden cases of tests/golden/pipeline-loops/.
#include "event_golden.h"
#include "passes/pipeline_loops.h"

namespace kiln::passes::testing {
namespace {

TEST(PipelineLoops, Golden) {
    run_golden_folder("pipeline-loops", pipeline_loops, 4);
}

} // namespace
} // namespace kiln::passes::testing
