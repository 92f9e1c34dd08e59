#include "loop_graph.h"

#include "json_fields.h"

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace kiln::schedule {

using detail::Fields;
using nlohmann::json;

int64_t Op::cycles() const {
    int64_t c = latency;
    for (const auto &u : uses)
        c = std::max(c, u.cycles);
    return c;
}

int64_t Op::occupancy(const std::string &unit) const {
    int64_t c = 0;
    for (const auto &u : uses)
        if (u.unit == unit)
            c += u.cycles;
    return c;
}

int LoopGraph::find(const std::string &op_name) const {
    for (size_t i = 0; i < ops.size(); ++i)
        if (ops[i].name == op_name)
            return static_cast<int>(i);
    return -1;
}

bool LoopGraph::is_streaming(int op) const {
    if (!ops[op].variable_latency)
        return false;
    return std::none_of(edges.begin(), edges.end(), [&](const Edge &e) { return e.to == op; });
}

namespace {

Expected<Op> parse_op(const json &j, const std::string &where) {
    if (!j.is_object())
        return Error{fmt::format("{}: must be an object", where)};
    Fields f{j, where};
    KILN_SCHED_CHECK(f.only({"name", "unit", "issue", "uses", "latency", "variable_latency",
                             "regs", "smem", "memory", "warps", "spill_cost", "comment"}));
    Op op;
    KILN_SCHED_TRY(name, f.required_string("name"));
    op.name = name;
    Fields named{j, fmt::format("{} ('{}')", where, name)};
    KILN_SCHED_TRY(latency, named.required_integer("latency", 0));
    op.latency = latency;
    if (j.contains("unit") && j.contains("uses"))
        return Error{named.where + ": give either 'unit' (with 'issue') or 'uses', not both"};
    if (j.contains("unit")) {
        KILN_SCHED_TRY(unit, named.string("unit", ""));
        KILN_SCHED_TRY(issue, named.integer("issue", latency, 0));
        op.uses.push_back({unit, issue});
    } else if (j.contains("issue")) {
        return Error{named.where + ": field 'issue' needs a 'unit'"};
    }
    if (auto it = j.find("uses"); it != j.end()) {
        if (!it->is_object())
            return Error{named.where + ": field 'uses' must map unit names to cycles"};
        for (const auto &[unit, cycles] : it->items()) {
            if (!cycles.is_number_integer() || cycles.get<int64_t>() < 0)
                return Error{
                    fmt::format("{}: uses.{} must be a non-negative integer", named.where, unit)};
            op.uses.push_back({unit, cycles.get<int64_t>()});
        }
    }
    KILN_SCHED_TRY(vl, named.boolean("variable_latency", false));
    op.variable_latency = vl;
    KILN_SCHED_TRY(regs, named.integer("regs", 0, 0));
    op.regs = regs;
    KILN_SCHED_TRY(smem, named.integer("smem", 0, 0));
    if (smem > 0)
        op.memory["smem"] = smem;
    if (auto it = j.find("memory"); it != j.end()) {
        if (!it->is_object())
            return Error{named.where + ": field 'memory' must map memory names to amounts"};
        for (const auto &[mem, amount] : it->items()) {
            if (!amount.is_number_integer() || amount.get<int64_t>() < 0)
                return Error{
                    fmt::format("{}: memory.{} must be a non-negative integer", named.where, mem)};
            op.memory[mem] += amount.get<int64_t>();
        }
    }
    KILN_SCHED_TRY(warps, named.integer("warps", 1, 1));
    op.warps = static_cast<int>(warps);
    KILN_SCHED_TRY(spill, named.integer("spill_cost", 0, 0));
    op.spill_cost = spill;
    return op;
}

Expected<Edge> parse_edge(const json &j, const std::string &where, const LoopGraph &g) {
    if (!j.is_object())
        return Error{fmt::format("{}: must be an object", where)};
    Fields f{j, where};
    KILN_SCHED_CHECK(f.only({"from", "to", "latency", "distance", "blocking", "comment"}));
    KILN_SCHED_TRY(from, f.required_string("from"));
    KILN_SCHED_TRY(to, f.required_string("to"));
    Edge e;
    e.from = g.find(from);
    e.to = g.find(to);
    if (e.from < 0)
        return Error{fmt::format("{} refers to unknown op '{}'", where, from)};
    if (e.to < 0)
        return Error{fmt::format("{} refers to unknown op '{}'", where, to)};
    // The default delay is the producer's latency: the consumer waits for the result.
    KILN_SCHED_TRY(latency, f.integer("latency", g.ops[e.from].latency, 0));
    KILN_SCHED_TRY(distance, f.integer("distance", 0, 0));
    KILN_SCHED_TRY(blocking, f.boolean("blocking", false));
    e.latency = latency;
    e.distance = static_cast<int>(distance);
    e.blocking = blocking;
    return e;
}

} // namespace

Expected<LoopGraph> parse_loop_graph(const std::string &text, const std::string &source) {
    KILN_SCHED_TRY(j, detail::parse_json(text, source));
    if (!j.is_object())
        return Error{source + ": top level must be an object with 'ops' and 'edges'"};
    Fields top{j, source};
    KILN_SCHED_CHECK(top.only({"name", "ops", "edges", "machine", "comment"}));
    LoopGraph g;
    KILN_SCHED_TRY(name, top.string("name", ""));
    g.name = name;
    if (auto it = j.find("machine"); it != j.end()) {
        if (it->is_string())
            g.machine = it->get<std::string>();
        else if (it->is_object())
            g.machine = it->dump();
        else
            return Error{source + ": field 'machine' must be a machine name or an object"};
    }
    if (!j.contains("ops") || !j["ops"].is_array())
        return Error{source + ": field 'ops' must be an array"};
    for (size_t i = 0; i < j["ops"].size(); ++i) {
        KILN_SCHED_TRY(op, parse_op(j["ops"][i], fmt::format("{}: op {}", source, i)));
        if (g.find(op.name) >= 0)
            return Error{fmt::format("{}: op {}: duplicate op name '{}'", source, i, op.name)};
        g.ops.push_back(std::move(op));
    }
    if (j.contains("edges")) {
        if (!j["edges"].is_array())
            return Error{source + ": field 'edges' must be an array"};
        for (size_t i = 0; i < j["edges"].size(); ++i) {
            KILN_SCHED_TRY(e, parse_edge(j["edges"][i], fmt::format("{}: edge {}", source, i), g));
            g.edges.push_back(e);
        }
    }
    KILN_SCHED_CHECK(check_loop_graph(g, source));
    return g;
}

Expected<LoopGraph> load_loop_graph(const std::string &path) {
    KILN_SCHED_TRY(text, detail::read_text_file(path));
    return parse_loop_graph(text, path);
}

json to_json(const LoopGraph &g) {
    json ops = json::array();
    for (const auto &op : g.ops) {
        json uses = json::object();
        for (const auto &u : op.uses)
            uses[u.unit] = u.cycles;
        json o = {{"name", op.name}, {"uses", uses}, {"latency", op.latency}};
        if (op.variable_latency)
            o["variable_latency"] = true;
        if (op.regs)
            o["regs"] = op.regs;
        if (!op.memory.empty())
            o["memory"] = op.memory;
        if (op.warps != 1)
            o["warps"] = op.warps;
        if (op.spill_cost)
            o["spill_cost"] = op.spill_cost;
        ops.push_back(o);
    }
    json edges = json::array();
    for (const auto &e : g.edges) {
        json o = {{"from", g.ops[e.from].name}, {"to", g.ops[e.to].name}, {"latency", e.latency}};
        if (e.distance)
            o["distance"] = e.distance;
        if (e.blocking)
            o["blocking"] = true;
        edges.push_back(o);
    }
    json out = {{"name", g.name}, {"ops", ops}, {"edges", edges}};
    if (!g.machine.empty())
        out["machine"] = g.machine.front() == '{' ? json::parse(g.machine) : json(g.machine);
    return out;
}

Expected<bool> check_loop_graph(const LoopGraph &g, const std::string &source) {
    if (g.ops.empty())
        return Error{source + ": the loop body has no ops"};
    for (size_t i = 0; i < g.ops.size(); ++i) {
        const Op &op = g.ops[i];
        if (op.name.empty())
            return Error{fmt::format("{}: op {} has an empty name", source, i)};
        if (op.uses.empty())
            return Error{fmt::format("{}: op '{}' uses no functional unit", source, op.name)};
        if (op.latency < 0 || op.regs < 0 || op.spill_cost < 0 || op.warps < 1)
            return Error{
                fmt::format("{}: op '{}' has a negative cost or footprint", source, op.name)};
    }
    const int n = static_cast<int>(g.ops.size());
    for (size_t i = 0; i < g.edges.size(); ++i) {
        const Edge &e = g.edges[i];
        if (e.from < 0 || e.from >= n || e.to < 0 || e.to >= n)
            return Error{fmt::format("{}: edge {} refers to an op index out of range", source, i)};
        if (e.latency < 0 || e.distance < 0)
            return Error{fmt::format("{}: edge {} ({} -> {}) has a negative latency or distance",
                                     source, i, g.ops[e.from].name, g.ops[e.to].name)};
    }
    // A cycle of distance-0 edges asks an op to start after itself within one iteration. Find
    // one with a DFS over the distance-0 subgraph and name it.
    std::vector<std::vector<int>> succ(n);
    for (const auto &e : g.edges)
        if (e.distance == 0)
            succ[e.from].push_back(e.to);
    std::vector<int> state(n, 0), parent(n, -1);
    for (int root = 0; root < n; ++root) {
        if (state[root])
            continue;
        std::vector<std::pair<int, size_t>> stack{{root, 0}};
        state[root] = 1;
        while (!stack.empty()) {
            auto &[v, next] = stack.back();
            if (next == succ[v].size()) {
                state[v] = 2;
                stack.pop_back();
                continue;
            }
            int w = succ[v][next++];
            if (state[w] == 1) {
                std::string path = g.ops[w].name;
                for (int x = v; x != w && x >= 0; x = parent[x])
                    path = g.ops[x].name + " -> " + path;
                return Error{fmt::format("{}: dependence cycle with iteration distance 0: {} -> {}",
                                         source, g.ops[w].name, path.substr(0))};
            }
            if (state[w] == 0) {
                state[w] = 1;
                parent[w] = v;
                stack.push_back({w, 0});
            }
        }
    }
    return true;
}

} // namespace kiln::schedule
