#include "machine.h"

#include "json_fields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kiln::schedule {

using detail::Fields;
using nlohmann::json;

// Capacities are in whole tile operations: every op in a loop graph occupies an entire SM-wide
// unit (all four SM sub-partitions), so each unit runs one op at a time.
Machine hopper() {
    Machine m;
    m.name = "hopper";
    m.units = {{"tma", 1}, {"tc", 1}, {"alu", 1}, {"sfu", 1}};
    m.memories = {{"smem", 232448}}; // 227 KiB usable per block
    m.warps = 4;                     // warpgroups: 4 x 128 threads
    m.register_limit = 240;          // setmaxnreg ceiling per thread
    m.register_file = 512;           // 65536 registers / 128 threads of one warpgroup
    return m;
}

Machine blackwell() {
    Machine m = hopper();
    m.name = "blackwell";
    m.units["tmem"] = 1;      // tcgen05.ld/st between Tensor Memory and registers
    m.memories["tmem"] = 512; // 512 columns x 128 lanes of 32-bit cells
    return m;
}

Expected<Machine> parse_machine(const std::string &text, const std::string &source) {
    KILN_SCHED_TRY(j, detail::parse_json(text, source));
    if (!j.is_object())
        return Error{source + ": a machine description must be a JSON object"};
    Fields f{j, source};
    KILN_SCHED_CHECK(f.only({"name", "units", "memories", "warps", "register_limit",
                             "register_file", "variable_latency_warp", "comment"}));
    Machine m;
    KILN_SCHED_TRY(name, f.string("name", "custom"));
    m.name = name;
    if (!j.contains("units") || !j["units"].is_object() || j["units"].empty())
        return Error{source + ": field 'units' must map unit names to capacities"};
    for (const auto &[unit, cap] : j["units"].items()) {
        if (!cap.is_number_integer() || cap.get<int64_t>() < 1)
            return Error{fmt::format("{}: units.{} must be a positive integer", source, unit)};
        m.units[unit] = cap.get<int>();
    }
    if (j.contains("memories")) {
        if (!j["memories"].is_object())
            return Error{source + ": field 'memories' must map memory names to capacities"};
        for (const auto &[mem, cap] : j["memories"].items()) {
            if (!cap.is_number_integer() || cap.get<int64_t>() < 0)
                return Error{
                    fmt::format("{}: memories.{} must be a non-negative integer", source, mem)};
            m.memories[mem] = cap.get<int64_t>();
        }
    }
    KILN_SCHED_TRY(warps, f.required_integer("warps", 1));
    KILN_SCHED_TRY(limit, f.required_integer("register_limit", 0));
    KILN_SCHED_TRY(file, f.integer("register_file", 0, 0));
    KILN_SCHED_TRY(vlw, f.boolean("variable_latency_warp", true));
    m.warps = static_cast<int>(warps);
    m.register_limit = limit;
    m.register_file = file;
    m.variable_latency_warp = vlw;
    return m;
}

Expected<Machine> load_machine(const std::string &path) {
    KILN_SCHED_TRY(text, detail::read_text_file(path));
    return parse_machine(text, path);
}

Expected<Machine> machine_by_name_or_path(const std::string &name_or_path) {
    if (name_or_path == "hopper")
        return hopper();
    if (name_or_path == "blackwell")
        return blackwell();
    return load_machine(name_or_path);
}

Expected<Machine> machine_for(const LoopGraph &g, const std::string &source) {
    if (g.machine.empty())
        return hopper();
    if (g.machine.front() == '{')
        return parse_machine(g.machine, source + ": machine");
    if (g.machine == "hopper" || g.machine == "blackwell")
        return machine_by_name_or_path(g.machine);
    return Error{fmt::format("{}: unknown machine '{}' (use hopper, blackwell or an inline object)",
                             source, g.machine)};
}

json to_json(const Machine &m) {
    return {{"name", m.name},
            {"units", m.units},
            {"memories", m.memories},
            {"warps", m.warps},
            {"register_limit", m.register_limit},
            {"register_file", m.register_file},
            {"variable_latency_warp", m.variable_latency_warp}};
}

Expected<bool> check_graph_on_machine(const LoopGraph &g, const Machine &m,
                                      const std::string &source) {
    for (const auto &op : g.ops) {
        for (const auto &u : op.uses)
            if (!m.units.count(u.unit))
                return Error{fmt::format("{}: op '{}' uses unit '{}', which machine '{}' lacks",
                                         source, op.name, u.unit, m.name)};
        for (const auto &[mem, amount] : op.memory)
            if (!m.memories.count(mem))
                return Error{fmt::format("{}: op '{}' needs memory '{}', which machine '{}' lacks",
                                         source, op.name, mem, m.name)};
        if (op.warps > m.warps)
            return Error{fmt::format("{}: op '{}' needs {} warps, machine '{}' has {}", source,
                                     op.name, op.warps, m.name, m.warps)};
    }
    return true;
}

} // namespace kiln::schedule
