#include "ir/mapping_parser.h"

#include <limits>

namespace kiln::ir {

void MappingParser::parse_mapping(mapping::Mapping& m) {
    const Token& kw = next();
    if (m.loc.known())
        fail(kw, "duplicate mapping (first at " + where(m.loc) + ")");
    m.loc = loc(kw);
    const Token& open = expect("{", "after 'mapping'");
    for (skip_separators(); !peek().is("}"); skip_separators()) {
        const Token& t = peek();
        if (t.is_ident("instance"))
            parse_instance(m);
        else if (t.is_ident("entry"))
            parse_entry(m);
        else if (at_end())
            expected("'}' to close the mapping opened at " + where(loc(open)));
        else
            expected("'instance' or 'entry' in the mapping");
    }
    next();
    end_statement("the mapping");
}

void MappingParser::parse_entry(mapping::Mapping& m) {
    const Token& kw = next();
    if (!m.entry.empty())
        fail(kw, "duplicate entry (first at " + where(m.entry_loc) + ")");
    m.entry_loc = loc(kw);
    m.entry = expect_ident("an instance name after 'entry'").text;
    end_statement("'entry " + m.entry + "'");
}

void MappingParser::parse_instance(mapping::Mapping& m) {
    const Token& kw = next();
    mapping::Instance inst;
    inst.loc = loc(kw);
    inst.name = expect_ident("an instance name after 'instance'").text;
    if (const auto* first = m.find_instance(inst.name))
        fail(kw,
             "duplicate instance '" + inst.name + "' (first defined at " + where(first->loc) + ")");
    expect(":", "after instance name '" + inst.name + "'");
    inst.variant = expect_ident("a variant name after ':'").text;
    expect("@", "after variant '" + inst.variant + "'");
    inst.level = parse_level_name();
    const Token& open = expect("{", "after the instance's processor level");
    std::map<std::string, Loc> seen; // attributes that may appear once
    for (skip_separators(); !peek().is("}"); skip_separators()) {
        if (at_end())
            expected("'}' to close instance '" + inst.name + "' opened at " + where(loc(open)));
        parse_attribute(inst, seen);
    }
    if (auto it = seen.find("cluster"); it != seen.end())
        if (std::string why = mapping::cluster_rule_violation(inst); !why.empty())
            throw DiagnosticError(Diagnostic{it->second, why});
    next();
    end_statement("instance '" + inst.name + "'");
    m.instances.push_back(std::move(inst));
}

void MappingParser::check_unique(std::map<std::string, Loc>& seen, const std::string& key,
                                 const std::string& what, const Token& at,
                                 const mapping::Instance& inst) {
    auto [it, fresh] = seen.emplace(key, loc(at));
    if (!fresh)
        fail(at, "duplicate " + what + " in instance '" + inst.name + "' (first at " +
                     where(it->second) + ")");
}

void MappingParser::parse_attribute(mapping::Instance& inst, std::map<std::string, Loc>& seen) {
    const Token& kw = peek();
    const std::string& a = kw.text;
    if (kw.kind != TokenKind::Ident)
        expected("an instance attribute");
    next();
    if (a == "mem") {
        do {
            const Token& t = expect_ident("a tensor name after 'mem'");
            check_unique(seen, "mem " + t.text, "mem binding for '" + t.text + "'", t, inst);
            expect("=", "after 'mem " + t.text + "'");
            inst.mems.push_back({t.text, parse_memory_name(), loc(t)});
        } while (accept(","));
    } else if (a == "tunable") {
        do {
            const Token& t = expect_ident("a tunable name after 'tunable'");
            check_unique(seen, "tunable " + t.text, "tunable '" + t.text + "'", t, inst);
            expect("=", "after 'tunable " + t.text + "'");
            int64_t v = expect_int("an integer value for tunable '" + t.text + "'").int_value;
            inst.tunables.push_back({t.text, v, loc(t)});
        } while (accept(","));
    } else if (a == "dispatch") {
        do {
            const Token& t = expect_ident("a launch site after 'dispatch'");
            check_unique(seen, "dispatch " + t.text, "dispatch of '" + t.text + "'", t, inst);
            expect("->", "after launch site '" + t.text + "'");
            std::string target = expect_ident("an instance name after '->'").text;
            inst.dispatch.push_back({t.text, target, loc(t)});
        } while (accept(","));
    } else if (a == "layout") {
        do {
            const Token& t = expect_ident("a tensor name after 'layout'");
            check_unique(seen, "layout " + t.text, "layout of '" + t.text + "'", t, inst);
            expect("=", "after 'layout " + t.text + "'");
            inst.layouts.push_back({t.text, parse_layout_name(), loc(t)});
        } while (accept(","));
    } else if (a == "warpspecialize" || a == "persistent") {
        check_unique(seen, a, "'" + a + "'", kw, inst);
        (a == "persistent" ? inst.persistent : inst.warpspecialize) = true;
    } else if (a == "pipeline") {
        check_unique(seen, a, "'pipeline'", kw, inst);
        expect("=", "after 'pipeline'");
        inst.pipeline = expect_int("an integer pipeline depth").int_value;
    } else if (a == "cluster") {
        check_unique(seen, a, "'cluster'", kw, inst);
        expect("=", "after 'cluster'");
        const Token& n = expect_int("a cluster size (1 or 2)");
        if (n.int_value != 1 && n.int_value != 2)
            fail(n, "instance '" + inst.name + "': cluster = " + n.text +
                        " is not supported (clusters of 1 or 2 CTAs)");
        inst.cluster = n.int_value;
    } else if (a == "smem_limit") {
        check_unique(seen, a, "'smem_limit'", kw, inst);
        expect("=", "after 'smem_limit'");
        inst.smem_limit = parse_bytes();
    } else if (a == "schedule") {
        check_unique(seen, a, "'schedule'", kw, inst);
        expect("=", "after 'schedule'");
        const Token& p = expect_ident("'manual' or 'optimal'");
        if (p.text != "manual" && p.text != "optimal")
            fail(p, "unknown schedule '" + p.text + "' (expected manual or optimal)");
        inst.schedule = p.text == "optimal" ? mapping::SchedulePolicy::Optimal
                                            : mapping::SchedulePolicy::Manual;
    } else {
        fail(kw, "unknown instance attribute '" + a +
                     "' (expected mem, tunable, dispatch, layout, warpspecialize, pipeline, "
                     "smem_limit, schedule, persistent or cluster)");
    }
    end_statement("'" + a + "' attribute");
}

int64_t MappingParser::parse_bytes() {
    const Token& n = expect_int("a byte count");
    if (!peek().is_ident("KiB"))
        return n.int_value;
    next();
    if (n.int_value > std::numeric_limits<int64_t>::max() / 1024)
        fail(n, "shared-memory limit " + n.text + " KiB is too large");
    return n.int_value * 1024;
}

} // namespace kiln::ir
