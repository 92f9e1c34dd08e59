#include "tools/kiln/cluster_option.h"

#include "tools/kiln/commands.h"

namespace kiln::cli {

void add_cluster_option(CLI::App& cmd, int& cluster) {
    cmd.add_option("--cluster", cluster,
                   "CTAs per thread-block cluster of the warp-specialized block instance (1 or 2; "
                   "default: as mapped)")
        ->check(CLI::Range(1, 2))
        ->type_name("N");
}

void apply_cluster(ir::Program& program, int cluster) {
    if (cluster == 0)
        return;
    if (std::string why = mapping::set_cluster(program.mapping, cluster); !why.empty())
        fail({Diagnostic{{}, "--cluster: " + why}});
}

} // namespace kiln::cli
