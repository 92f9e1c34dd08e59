// A stand-in for the `kiln` program with only the `schedule` subcommand, so the CLI can be run
// and tested before (and independently of) tools/kiln.
#include "cli.h"

#include <CLI/CLI.hpp>

int main(int argc, char **argv) {
    CLI::App app{"kiln (schedule subcommand only)"};
    app.require_subcommand(1);
    kiln::schedule::register_cli(app);
    CLI11_PARSE(app, argc, argv);
    return 0;
}
