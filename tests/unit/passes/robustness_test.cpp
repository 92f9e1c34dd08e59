// Never a crash on bad input: examples with one line deleted, and with one identifier
// renamed to another of the same file, goes through parse + instantiate. Whatever parses must
// come back as a tree or as diagnostics that all carry a location in the file.
#include "test_util.h"

#include <regex>
#include <set>

namespace kiln::passes::testing {
namespace {

std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

std::string join_lines(const std::vector<std::string> &lines) {
    std::string out;
    for (const auto &l : lines)
        out += l + "\n";
    return out;
}

// Returns whether `text` parsed; checks what instantiate() says about it.
bool check_survives(const std::string &text, const std::string &what) {
    auto p = ir::parse_program(text, "mutant.kiln");
    if (!p)
        return false;
    auto tree = instantiate(*p);
    if (!tree.ok()) {
        for (const auto &d : tree.errors())
            EXPECT_TRUE(d.loc.known() && d.loc.file == "mutant.kiln") << what << ": " << d.str();
    }
    return true;
}

// A few examples that together use every statement kind; all of them would cost CI seconds.
std::vector<std::string> examples() {
    return {source_path("examples/gemm.kiln"), source_path("examples/gemm_rowsum.kiln"),
            source_path("examples/attention_d64_causal.kiln")};
}

TEST(Robustness, ExamplesWithOneLineDeleted) {
    for (const auto &path : examples()) {
        auto lines = lines_of(read_text(path));
        int parsed = 0;
        for (std::size_t i = 0; i < lines.size(); ++i) {
            auto mutant = lines;
            mutant.erase(mutant.begin() + i);
            parsed +=
                check_survives(join_lines(mutant), path + " without line " + std::to_string(i + 1));
        }
        EXPECT_GT(parsed, 0) << path;
    }
}

// Renaming the k-th identifier occurrence to a name used elsewhere in the file produces
// undefined, mismatched and misplaced names of every kind.
TEST(Robustness, GemmWithOneIdentifierRenamed) {
    std::string text = read_text(source_path("examples/gemm.kiln"));
    static const std::regex ident("[A-Za-z_][A-Za-z0-9_]*");
    std::vector<std::pair<std::size_t, std::size_t>> spans; // (position, length)
    std::set<std::string> names;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), ident);
         it != std::sregex_iterator(); ++it) {
        spans.emplace_back(it->position(), it->length());
        names.insert(it->str());
    }
    std::vector<std::string> pool(names.begin(), names.end());
    // A deterministic sample keeps the test fast: every 7th occurrence, cycling through names.
    for (std::size_t k = 0; k < spans.size(); k += 7) {
        std::string mutant = text;
        const std::string &name = pool[(k * 31) % pool.size()];
        mutant.replace(spans[k].first, spans[k].second, name);
        check_survives(mutant, "occurrence " + std::to_string(k) + " -> " + name);
    }
}

} // namespace
} // namespace kiln::passes::testing
