// kiln schedule: the Twill scheduler's own command line lives with it in src/schedule.
#include "schedule/cli.h"
#include "tools/kiln/commands.h"

namespace kiln::cli {
void register_schedule_command(CLI::App& app) { schedule::register_cli(app); }
} // namespace kiln::cli
