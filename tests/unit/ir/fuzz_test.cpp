// Mutation fuzzing of the parser: every example, mutated at random (tokens deleted, duplicated,
// swapped, punctuation or keywords inserted, bytes changed, text truncated), must parse to a
// diagnostic with a location or to a program whose print re-parses to the same IR. A crash, a
// hang or an exception is a failure. KILN_FUZZ_CASES sets the number of cases (default 2000),
// KILN_FUZZ_SEED the seed (default 1).
#include "ir/parser.h"
#include "ir/printer.h"
#include "program_diff.h"
#include "test_util.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <random>

namespace kiln::ir {
namespace {

long env_or(const char* name, long fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The rough token around byte `i` of `s` (a word, a run of blanks, or one character), as a
// byte range [begin, end).
std::pair<std::size_t, std::size_t> token_at(const std::string& s, std::size_t i) {
    auto same_class = [&](std::size_t j) {
        return word_char(s[i]) ? word_char(s[j]) : s[i] == ' ' && s[j] == ' ';
    };
    std::size_t b = i, e = i + 1;
    while (b > 0 && same_class(b - 1))
        --b;
    while (e < s.size() && same_class(e))
        ++e;
    return {b, e};
}

class Mutator {
public:
    explicit Mutator(uint32_t seed) : rng_(seed) {}

    std::string mutate(std::string s) {
        int n = 1 + pick(3);
        for (int i = 0; i < n && !s.empty(); ++i)
            s = mutate_once(s);
        return s;
    }

private:
    std::mt19937 rng_;

    std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
    }

    std::string mutate_once(const std::string& s) {
        static const char* kInserts[] = {"(",
                                         ")",
                                         "[",
                                         "]",
                                         "{",
                                         "}",
                                         ",",
                                         ":",
                                         "=",
                                         ";",
                                         ".",
                                         "@",
                                         "+",
                                         "-",
                                         "*",
                                         "/",
                                         "%",
                                         "->",
                                         "#",
                                         "\"",
                                         "\n",
                                         "_",
                                         "0",
                                         "-1",
                                         "1.5e",
                                         "inf",
                                         "let",
                                         "launch",
                                         "srange",
                                         "prange",
                                         "tunable",
                                         "task",
                                         "variant",
                                         "inner",
                                         "leaf",
                                         "mapping",
                                         "instance",
                                         "entry",
                                         "tensor",
                                         "blocks",
                                         "mma",
                                         "pad",
                                         "grid",
                                         "WARPGROUP",
                                         "reduce(+)",
                                         "mem",
                                         "dispatch",
                                         "KiB",
                                         "99999999999999999999",
                                         "call_external(\"f\")",
                                         "((((((((((",
                                         "srange k in [2] {"};
        auto [b, e] = token_at(s, pick(s.size()));
        switch (pick(7)) {
        case 0: // delete a token
            return s.substr(0, b) + s.substr(e);
        case 1: // duplicate a token
            return s.substr(0, e) + s.substr(b, e - b) + s.substr(e);
        case 2: { // swap two tokens
            auto [b2, e2] = token_at(s, pick(s.size()));
            if (b2 < b)
                std::swap(b, b2), std::swap(e, e2);
            if (b2 < e)
                return s;
            return s.substr(0, b) + s.substr(b2, e2 - b2) + s.substr(e, b2 - e) +
                   s.substr(b, e - b) + s.substr(e2);
        }
        case 3: // insert punctuation or a keyword
            return s.substr(0, b) + kInserts[pick(std::size(kInserts))] + s.substr(b);
        case 4: // delete a byte range
            return s.substr(0, b) + s.substr(std::min(s.size(), b + 1 + pick(16)));
        case 5: // truncate
            return s.substr(0, b);
        default: { // replace a byte with any byte
            std::string t = s;
            t[b] = static_cast<char>(pick(256));
            return t;
        }
        }
    }
};

// Either a located diagnostic, or a program that prints to text parsing back to the same IR.
// Returns whether the text parsed.
bool check(const std::string& text, const std::string& name) {
    auto p = parse_program(text, name);
    if (!p.ok()) {
        EXPECT_FALSE(p.errors().empty());
        for (const auto& d : p.errors()) {
            EXPECT_FALSE(d.message.empty());
            EXPECT_TRUE(d.loc.known()) << d.str();
        }
        return false;
    }
    std::string printed = print_program(*p);
    auto again = parse_program(printed, name + " (printed)");
    EXPECT_TRUE(again.ok()) << again.error_text() << "printed:\n" << printed;
    if (!again.ok())
        return true;
    EXPECT_EQ(testing::first_difference(*p, *again), "");
    EXPECT_EQ(print_program(*again), printed);
    return true;
}

TEST(Fuzz, MutatedExamplesNeverCrashTheParser) {
    std::vector<std::string> sources;
    for (const auto& f : testing::example_files())
        sources.push_back(testing::read_text(f));
    ASSERT_FALSE(sources.empty());
    long cases = env_or("KILN_FUZZ_CASES", 2000);
    long seed = env_or("KILN_FUZZ_SEED", 1);
    Mutator mutator(static_cast<uint32_t>(seed));
    long parsed = 0;
    for (long i = 0; i < cases; ++i) {
        std::string text = mutator.mutate(sources[i % sources.size()]);
        SCOPED_TRACE("case " + std::to_string(i) + " (seed " + std::to_string(seed) + ")");
        parsed += check(text, "fuzz.kiln");
        if (::testing::Test::HasFailure()) {
            ADD_FAILURE() << "input:\n" << text;
            return;
        }
    }
    // Many mutations (a changed comment, a duplicated blank) keep the text valid: the accepting
    // path must be exercised as well as the rejecting one.
    std::cout << parsed << " of " << cases << " mutated inputs parsed\n";
    if (cases >= 200) {
        EXPECT_GT(parsed, 0);
    }
}

} // namespace
} // namespace kiln::ir
