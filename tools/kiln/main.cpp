// The `kiln` command-line program: one subcommand per job, each in its own file.
#include "tools/kiln/commands.h"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    CLI::App app{"kiln: a task-based compiler for NVIDIA Hopper kernels"};
    app.require_subcommand(1);
    kiln::cli::register_program_commands(app);
    kiln::cli::register_compile_command(app);
    kiln::cli::register_run_command(app);
    kiln::cli::register_schedule_command(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::RuntimeError& e) {
        return e.get_exit_code(); // the command already printed its diagnostics
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kiln::cli::kExitUsage;
    }
    return 0;
}
