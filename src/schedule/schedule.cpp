#include "schedule.h"

#include "json_fields.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kiln::schedule {

using nlohmann::json;

json to_json(const Schedule &s) {
    json ops = json::array();
    for (size_t v = 0; v < s.ops.size(); ++v)
        ops.push_back({{"name", s.ops[v]},
                       {"cycle", s.start[v]},
                       {"stage", s.stage(static_cast<int>(v))},
                       {"slot", s.slot(static_cast<int>(v))},
                       {"warps", s.warps[v]}});
    json costs = json::array();
    for (auto [real, norm] : s.cost_map)
        costs.push_back({real, norm});
    json attempts = json::array();
    for (const auto &a : s.attempts)
        attempts.push_back({{"phase", a.phase},
                            {"ii", a.ii},
                            {"length", a.length},
                            {"outcome", a.outcome},
                            {"seconds", a.seconds}});
    return {{"format", "kiln.schedule/1"},
            {"graph", s.graph},
            {"machine", s.machine},
            {"ii", s.ii},
            {"length", s.length},
            {"stages", s.stages()},
            {"warps", s.num_warps},
            {"warp_specialized", s.warp_specialized},
            {"variable_latency_warp", s.variable_latency_warp},
            {"ops", ops},
            {"warp_registers", s.warp_register_peak},
            {"mii",
             {{"resource", s.mii.resource},
              {"resource_unit", s.mii.resource_unit},
              {"recurrence", s.mii.recurrence}}},
            {"modulo", {{"ii", s.modulo_ii}, {"length", s.modulo_length}}},
            {"normalization", {{"costs", costs}, {"max_ratio_error", s.ratio_error}}},
            {"optimal", s.optimal},
            {"encoding", s.encoding},
            {"seconds",
             {{"normalize", s.normalize_s},
              {"modulo", s.modulo_s},
              {"joint", s.joint_s},
              {"total", s.total_s}}},
            {"attempts", attempts}};
}

Expected<Schedule> parse_schedule(const std::string &text, const std::string &source) {
    KILN_SCHED_TRY(j, detail::parse_json(text, source));
    if (!j.is_object() || j.value("format", "") != "kiln.schedule/1")
        return Error{source + ": not a kiln schedule (expected \"format\": \"kiln.schedule/1\")"};
    detail::Fields f{j, source};
    Schedule s;
    KILN_SCHED_TRY(ii, f.required_integer("ii", 1));
    KILN_SCHED_TRY(length, f.required_integer("length", 1));
    KILN_SCHED_TRY(warps, f.integer("warps", 1, 1));
    KILN_SCHED_TRY(ws, f.boolean("warp_specialized", true));
    KILN_SCHED_TRY(vlw, f.boolean("variable_latency_warp", false));
    KILN_SCHED_TRY(graph, f.string("graph", ""));
    KILN_SCHED_TRY(machine, f.string("machine", ""));
    s.ii = ii;
    s.length = length;
    s.num_warps = static_cast<int>(warps);
    s.warp_specialized = ws;
    s.variable_latency_warp = vlw;
    s.graph = graph;
    s.machine = machine;
    if (!j.contains("ops") || !j["ops"].is_array())
        return Error{source + ": field 'ops' must be an array"};
    for (size_t i = 0; i < j["ops"].size(); ++i) {
        const json &o = j["ops"][i];
        if (!o.is_object())
            return Error{fmt::format("{}: ops[{}] must be an object", source, i)};
        detail::Fields of{o, fmt::format("{}: ops[{}]", source, i)};
        KILN_SCHED_TRY(name, of.required_string("name"));
        KILN_SCHED_TRY(cycle, of.required_integer("cycle", 0));
        if (!o.contains("warps") || !o["warps"].is_array())
            return Error{
                fmt::format("{}: ops[{}] ('{}'): field 'warps' must be an array", source, i, name)};
        std::vector<int> w;
        for (const auto &x : o["warps"]) {
            if (!x.is_number_integer())
                return Error{
                    fmt::format("{}: ops[{}] ('{}'): warps must be integers", source, i, name)};
            w.push_back(x.get<int>());
        }
        s.ops.push_back(name);
        s.start.push_back(cycle);
        s.warps.push_back(w);
    }
    return s;
}

} // namespace kiln::schedule
