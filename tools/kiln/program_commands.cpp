// kiln check | print | tree: read a program, verify it under its mapping, show it.
#include "ir/printer.h"
#include "passes/instantiate.h"
#include "tools/kiln/commands.h"

#include <iostream>

namespace kiln::cli {
namespace {

struct ProgramOptions {
    std::string file;
    std::vector<std::string> sizes;
    OverrideOptions overrides;
};

void add_program_options(CLI::App* cmd, ProgramOptions& o) {
    cmd->add_option("FILE", o.file, "a .kiln program with its mapping")->required();
    cmd->add_option("--size", o.sizes, "override a problem size, e.g. --size M=4096")
        ->type_name("NAME=INT");
    add_override_options(*cmd, o.overrides);
}

passes::TaskTree instantiate_or_fail(const ir::Program& p, const ProgramOptions& o) {
    auto tree = passes::instantiate(p, parse_sizes(o.sizes));
    if (!tree)
        fail(tree.errors());
    return std::move(tree).value();
}

} // namespace

void register_program_commands(CLI::App& app) {
    static ProgramOptions check_o, print_o, tree_o;

    auto* check = app.add_subcommand(
        "check", "Parse and verify a program and its mapping; print nothing when it is valid");
    add_program_options(check, check_o);
    check->callback(
        [] { instantiate_or_fail(load_program(check_o.file, check_o.overrides), check_o); });

    auto* print = app.add_subcommand(
        "print", "Print the program in canonical form (what the parser reads back exactly)");
    print->add_option("FILE", print_o.file, "a .kiln program with its mapping")->required();
    add_override_options(*print, print_o.overrides);
    print->callback(
        [] { std::cout << ir::print_program(load_program(print_o.file, print_o.overrides)); });

    auto* tree = app.add_subcommand(
        "tree", "Print the instantiated task tree: instances, levels, memories and shapes");
    add_program_options(tree, tree_o);
    tree->callback([] {
        std::cout << passes::print_tree(
            instantiate_or_fail(load_program(tree_o.file, tree_o.overrides), tree_o));
    });
}

} // namespace kiln::cli
