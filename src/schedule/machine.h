#pragma once
// The machine description the scheduler targets, as data: functional units with capacities,
// memories with capacities, and the warps ops may be assigned to. Hopper and Blackwell are
// built in; any other machine is a JSON file (docs/scheduler.md).
#include "expected.h"
#include "loop_graph.h"

#include <cstdint>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace kiln::schedule {

struct Machine {
    std::string name;
    std::map<std::string, int> units;        // unit -> how many ops may occupy it per cycle
    std::map<std::string, int64_t> memories; // "smem" bytes, "tmem" columns, ...
    int warps = 1;                           // warps (warpgroups on Hopper) the schedule may use
    int64_t register_limit = 0;              // per-thread registers one warp may hold live at once
    int64_t register_file = 0;               // all warps together, same unit; 0 = no limit
    // Variable-latency ops go to a warp of their own (warp 0) and nothing else goes there.
    bool variable_latency_warp = true;
};

Machine hopper();    // H100 SXM: TMA, Tensor Core, SIMT ALU, SFU; 227 KiB smem; 4 warpgroups
Machine blackwell(); // B200: adds Tensor Memory; the Tensor Core is twice as fast per tile

Expected<Machine> parse_machine(const std::string &text, const std::string &source);
Expected<Machine> load_machine(const std::string &path);
// "hopper", "blackwell", or a path to a JSON file.
Expected<Machine> machine_by_name_or_path(const std::string &name_or_path);
nlohmann::json to_json(const Machine &m);
// The graph's own machine (its "machine" field), or Hopper when it names none.
Expected<Machine> machine_for(const LoopGraph &g, const std::string &source);

// Every unit and memory the graph names exists on the machine, and no op needs more warps than
// the machine has.
Expected<bool> check_graph_on_machine(const LoopGraph &g, const Machine &m,
                                      const std::string &source);

} // namespace kiln::schedule
