#include "codegen/launch_spec.h"

#include <nlohmann/json.hpp>

namespace kiln::codegen {
namespace {

using nlohmann::json;

constexpr ir::Privilege kPrivileges[] = {ir::Privilege::Read, ir::Privilege::Write,
                                         ir::Privilege::ReadWrite, ir::Privilege::ReduceAdd,
                                         ir::Privilege::ReduceMax};

[[noreturn]] void bad(const std::string& why) {
    throw DiagnosticError(Diagnostic{{}, "launch spec: " + why});
}

ir::DType dtype_of(const json& j) {
    auto t = ir::parse_dtype(j.get<std::string>());
    if (!t)
        bad("unknown dtype '" + j.get<std::string>() + "'");
    return *t;
}

ir::Privilege privilege_of(const json& j) {
    for (auto p : kPrivileges)
        if (ir::spelling(p) == j.get<std::string>())
            return p;
    bad("unknown privilege '" + j.get<std::string>() + "'");
}

json map_json(const SpecTensorMap& m) {
    return {{"dtype", ir::spelling(m.dtype)},
            {"dims", m.dims},
            {"strides_bytes", m.strides_bytes},
            {"box", m.box},
            {"swizzle_bytes", m.swizzle_bytes}};
}

SpecTensorMap map_from(const json& j) {
    SpecTensorMap m{dtype_of(j.at("dtype")), j.at("dims").get<std::vector<uint64_t>>(),
                    j.at("strides_bytes").get<std::vector<uint64_t>>(),
                    j.at("box").get<std::vector<uint32_t>>(), j.at("swizzle_bytes").get<int>()};
    if (m.dims.empty() || m.dims.size() > 5 || m.box.size() != m.dims.size() ||
        m.strides_bytes.size() + 1 != m.dims.size())
        bad("a tensor map needs rank 1..5 dims, as many box extents and one stride fewer");
    return m;
}

json arg_json(const SpecArg& a) {
    if (a.kind == SpecArg::Kind::Pointer)
        return {{"pointer", a.param}};
    return {{"tensor_map", a.param}, {"map", map_json(a.map)}};
}

SpecArg arg_from(const json& j, std::size_t params) {
    SpecArg a;
    if (j.contains("pointer")) {
        a.param = j.at("pointer").get<int>();
    } else {
        a.kind = SpecArg::Kind::TensorMap;
        a.param = j.at("tensor_map").get<int>();
        a.map = map_from(j.at("map"));
    }
    if (a.param < 0 || static_cast<std::size_t>(a.param) >= params)
        bad("argument names parameter " + std::to_string(a.param) + " of " +
            std::to_string(params));
    return a;
}

json kernel_json(const KernelLaunch& k) {
    json args = json::array();
    for (const auto& a : k.args)
        args.push_back(arg_json(a));
    json j = {{"symbol", k.symbol},   {"tiles", k.tiles},           {"persistent", k.persistent},
              {"threads", k.threads}, {"smem_bytes", k.smem_bytes}, {"args", args},
              {"cluster", k.cluster}};
    if (k.overlaps_previous)
        j["overlaps_previous"] = true;
    return j;
}

KernelLaunch kernel_from(const json& j, std::size_t params) {
    KernelLaunch k{j.at("symbol").get<std::string>(),
                   j.at("tiles").get<int64_t>(),
                   j.at("persistent").get<bool>(),
                   j.at("threads").get<int>(),
                   j.at("smem_bytes").get<int64_t>(),
                   {},
                   j.value("cluster", 1),
                   j.value("overlaps_previous", false)};
    if (k.symbol.empty() || k.tiles < 1 || k.threads < 1 || k.threads > 1024 || k.smem_bytes < 0 ||
        k.cluster < 1 || k.cluster > 8)
        bad("kernel '" + k.symbol +
            "': needs a name, tiles >= 1, 1..1024 threads, a cluster of "
            "1..8 CTAs");
    for (const auto& a : j.at("args"))
        k.args.push_back(arg_from(a, params));
    return k;
}

LaunchSpec spec_from(const json& j) {
    LaunchSpec s;
    s.program = j.at("program").get<std::string>();
    for (const auto& p : j.at("params"))
        s.params.push_back(SpecParam{p.at("name").get<std::string>(), dtype_of(p.at("dtype")),
                                     p.at("shape").get<std::vector<int64_t>>(),
                                     privilege_of(p.at("privilege")),
                                     p.value("workspace", false)});
    for (const auto& z : j.at("sizes"))
        s.sizes.emplace_back(z.at(0).get<std::string>(), z.at(1).get<int64_t>());
    for (const auto& k : j.at("kernels"))
        s.kernels.push_back(kernel_from(k, s.params.size()));
    if (s.kernels.empty())
        bad("no kernels");
    return s;
}

} // namespace

int64_t SpecParam::bytes() const {
    int64_t n = ir::dtype_bytes(dtype);
    for (auto e : shape)
        n *= e;
    return n;
}

std::string to_json(const LaunchSpec& spec) {
    json params = json::array(), sizes = json::array(), kernels = json::array();
    for (const auto& p : spec.params) {
        json param = {{"name", p.name},
                      {"dtype", ir::spelling(p.dtype)},
                      {"shape", p.shape},
                      {"privilege", ir::spelling(p.privilege)}};
        if (p.workspace)
            param["workspace"] = true;
        params.push_back(param);
    }
    for (const auto& [n, v] : spec.sizes)
        sizes.push_back(json::array({n, v}));
    for (const auto& k : spec.kernels)
        kernels.push_back(kernel_json(k));
    json j = {
        {"program", spec.program}, {"params", params}, {"sizes", sizes}, {"kernels", kernels}};
    return j.dump(1);
}

Result<LaunchSpec> launch_spec_from_json(const std::string& text) {
    try {
        return spec_from(json::parse(text));
    } catch (const DiagnosticError& e) {
        return e.diag;
    } catch (const json::exception& e) {
        return Diagnostic{{}, std::string("launch spec: malformed JSON: ") + e.what()};
    }
}

} // namespace kiln::codegen
