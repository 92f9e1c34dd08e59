#pragma once
// The `kiln schedule` subcommand: reads a loop graph (JSON), runs the search, prints the
// schedule as text and an ASCII timeline, and optionally writes JSON (--json) and SVG (--svg).
namespace CLI {
class App;
}

namespace kiln::schedule {

void register_cli(CLI::App &app);

} // namespace kiln::schedule
