#pragma once
// Random mutations of valid source text for the parser fuzz tests: tokens deleted, duplicated,
// swapped, punctuation or keywords inserted, bytes changed, text truncated; and the loop that
// feeds them to a parser check.
#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace kiln::ir::testing {

// The value of environment variable `name` as an integer, or `fallback` when unset.
inline long env_or(const char* name, long fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::strtol(v, nullptr, 10) : fallback;
}

inline bool word_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// The rough token around byte `i` of `s` (a word, a run of blanks, or one character), as a
// byte range [begin, end).
inline std::pair<std::size_t, std::size_t> token_at(const std::string& s, std::size_t i) {
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

// Brackets and separators of both languages, inserted at random besides each one's own.
inline const std::vector<std::string> kSharedInserts = {"(", ")", "[", "]", "{", "}",
                                                        ",", ":", "=", ";", ".", "@"};

class Mutator {
public:
    // `inserts`: the punctuation and keywords of the language under test, inserted at random
    // after kSharedInserts.
    Mutator(uint32_t seed, const std::vector<std::string>& inserts)
        : rng_(seed), inserts_(kSharedInserts) {
        inserts_.insert(inserts_.end(), inserts.begin(), inserts.end());
    }

    std::string mutate(std::string s) {
        int n = 1 + pick(3);
        for (int i = 0; i < n && !s.empty(); ++i)
            s = mutate_once(s);
        return s;
    }

private:
    std::mt19937 rng_;
    std::vector<std::string> inserts_;

    std::size_t pick(std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_);
    }

    std::string mutate_once(const std::string& s) {
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
            return s.substr(0, b) + inserts_[pick(inserts_.size())] + s.substr(b);
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

// Feeds KILN_FUZZ_CASES (default 2000) mutations of `sources`, taken in turn, seeded by
// KILN_FUZZ_SEED (default 1), to `check`, which returns whether the text parsed; stops at the
// first case that fails the test and prints its input.
inline void fuzz_parser(const std::vector<std::string>& sources,
                        const std::vector<std::string>& inserts,
                        const std::function<bool(const std::string&)>& check) {
    long cases = env_or("KILN_FUZZ_CASES", 2000);
    long seed = env_or("KILN_FUZZ_SEED", 1);
    Mutator mutator(static_cast<uint32_t>(seed), inserts);
    long parsed = 0;
    for (long i = 0; i < cases; ++i) {
        std::string text = mutator.mutate(sources[i % sources.size()]);
        SCOPED_TRACE("case " + std::to_string(i) + " (seed " + std::to_string(seed) + ")");
        parsed += check(text);
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

} // namespace kiln::ir::testing
