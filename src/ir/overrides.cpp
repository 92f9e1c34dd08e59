#include "ir/overrides.h"

#include <fmt/core.h>

#include <algorithm>
#include <charconv>

namespace kiln::ir {
namespace {

Diagnostic error(std::string message) {
    return Diagnostic{{}, std::move(message)};
}

// "LEFT=RIGHT" with both sides non-empty.
std::optional<std::pair<std::string, std::string>> split_assignment(const std::string& text) {
    auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        return std::nullopt;
    return std::pair{text.substr(0, eq), text.substr(eq + 1)};
}

std::optional<int64_t> positive_integer(const std::string& s) {
    int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size() || v <= 0)
        return std::nullopt;
    return v;
}

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& n : names)
        out += (out.empty() ? "" : ", ") + n;
    return out.empty() ? "none" : out;
}

mapping::Instance* find_instance(Program& p, const std::string& name) {
    for (auto& inst : p.mapping.instances)
        if (inst.name == name)
            return &inst;
    return nullptr;
}

std::vector<std::string> instance_names(const Program& p) {
    std::vector<std::string> names;
    for (const auto& inst : p.mapping.instances)
        names.push_back(inst.name);
    return names;
}

std::vector<std::string> declared_tunables(const Program& p, const mapping::Instance& inst) {
    const Variant* v = p.find_variant(inst.variant);
    return v ? v->tunables() : std::vector<std::string>{};
}

void bind_tunable(mapping::Instance& inst, const std::string& name, int64_t value) {
    for (auto& t : inst.tunables)
        if (t.name == name) {
            t.value = value;
            return;
        }
    inst.tunables.push_back({name, value, inst.loc});
}

std::optional<Diagnostic> apply_tunable(Program& p, const TunableOverride& o) {
    const std::string text =
        fmt::format("--tunable {}{}={}", o.instance ? *o.instance + "." : "", o.name, o.value);
    if (o.instance) {
        mapping::Instance* inst = find_instance(p, *o.instance);
        if (!inst)
            return error(fmt::format("{}: no mapping instance '{}' (instances: {})", text,
                                     *o.instance, joined(instance_names(p))));
        auto declared = declared_tunables(p, *inst);
        if (std::find(declared.begin(), declared.end(), o.name) == declared.end())
            return Diagnostic{inst->loc, fmt::format("{}: variant '{}' of instance '{}' declares "
                                                     "no tunable '{}' (it declares: {})",
                                                     text, inst->variant, inst->name, o.name,
                                                     joined(declared))};
        bind_tunable(*inst, o.name, o.value);
        return std::nullopt;
    }
    bool applied = false;
    std::vector<std::string> all;
    for (auto& inst : p.mapping.instances) {
        auto declared = declared_tunables(p, inst);
        for (const auto& d : declared)
            if (std::find(all.begin(), all.end(), d) == all.end())
                all.push_back(d);
        if (std::find(declared.begin(), declared.end(), o.name) == declared.end())
            continue;
        bind_tunable(inst, o.name, o.value);
        applied = true;
    }
    if (!applied)
        return error(fmt::format("{}: no instance's variant declares a tunable '{}' (tunables: {})",
                                 text, o.name, joined(all)));
    return std::nullopt;
}

std::optional<Diagnostic> apply_pipeline(Program& p, const PipelineOverride& o) {
    mapping::Instance* inst = find_instance(p, o.instance);
    if (!inst)
        return error(fmt::format("--pipeline {}={}: no mapping instance '{}' (instances: {})",
                                 o.instance, o.depth, o.instance, joined(instance_names(p))));
    inst->pipeline = o.depth;
    return std::nullopt;
}

int retype(std::vector<Stmt>& body, const DTypeOverride& o) {
    int changed = 0;
    for (auto& s : body) {
        if (auto* t = std::get_if<LetTensor>(&s.node); t && t->dtype == o.from) {
            t->dtype = o.to;
            ++changed;
        }
        if (auto* l = std::get_if<Loop>(&s.node))
            changed += retype(l->body, o);
    }
    return changed;
}

std::optional<Diagnostic> apply_dtype(Program& p, const DTypeOverride& o) {
    int changed = 0;
    for (auto& task : p.tasks)
        for (auto& param : task.params)
            if (param.is_tensor && param.dtype == o.from) {
                param.dtype = o.to;
                ++changed;
            }
    for (auto& v : p.variants)
        changed += retype(v.body, o);
    if (changed == 0)
        return error(fmt::format("--dtype {}={}: program '{}' has no {} tensor", spelling(o.from),
                                 spelling(o.to), p.name, spelling(o.from)));
    return std::nullopt;
}

std::optional<Diagnostic> apply_cluster(Program& p, int64_t cluster) {
    if (std::string why = mapping::set_cluster(p.mapping, cluster); !why.empty())
        return error("--cluster: " + why);
    return std::nullopt;
}

} // namespace

Result<TunableOverride> parse_tunable_override(const std::string& text) {
    auto kv = split_assignment(text);
    auto value = kv ? positive_integer(kv->second) : std::nullopt;
    if (!value)
        return error(
            fmt::format("--tunable expects [INSTANCE.]NAME=POSITIVE_INTEGER, got '{}'", text));
    TunableOverride o;
    o.value = *value;
    auto dot = kv->first.find('.');
    if (dot == std::string::npos) {
        o.name = kv->first;
    } else {
        o.instance = kv->first.substr(0, dot);
        o.name = kv->first.substr(dot + 1);
        if (o.instance->empty() || o.name.empty())
            return error(
                fmt::format("--tunable expects [INSTANCE.]NAME=POSITIVE_INTEGER, got '{}'", text));
    }
    return o;
}

Result<PipelineOverride> parse_pipeline_override(const std::string& text) {
    auto kv = split_assignment(text);
    auto depth = kv ? positive_integer(kv->second) : std::nullopt;
    if (!depth)
        return error(fmt::format("--pipeline expects INSTANCE=POSITIVE_INTEGER, got '{}'", text));
    return PipelineOverride{kv->first, *depth};
}

Result<DTypeOverride> parse_dtype_override(const std::string& text) {
    auto kv = split_assignment(text);
    auto from = kv ? parse_dtype(kv->first) : std::nullopt;
    auto to = kv ? parse_dtype(kv->second) : std::nullopt;
    if (!from || !to)
        return error(fmt::format("--dtype expects FROM=TO with element types (f32, f16, bf16, "
                                 "f8e4m3, f8e5m2, i32), got '{}'",
                                 text));
    return DTypeOverride{*from, *to};
}

Result<Program> apply_overrides(const Program& program, const Overrides& overrides) {
    Program p = program;
    std::vector<Diagnostic> errors;
    auto note = [&](std::optional<Diagnostic> d) {
        if (d)
            errors.push_back(std::move(*d));
    };
    for (const auto& o : overrides.tunables)
        note(apply_tunable(p, o));
    for (const auto& o : overrides.pipelines)
        note(apply_pipeline(p, o));
    for (const auto& o : overrides.dtypes)
        note(apply_dtype(p, o));
    if (overrides.cluster)
        note(apply_cluster(p, *overrides.cluster));
    if (!errors.empty())
        return errors;
    return p;
}

} // namespace kiln::ir
