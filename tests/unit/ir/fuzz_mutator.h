#pragma once
// Random mutations of valid source text for the parser fuzz tests: tokens deleted, duplicated,
// swapped, punctuation or keywords inserted, bytes changed, text truncated.
#include <cctype>
#include <cstdint>
#include <cstdlib>
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

class Mutator {
public:
    // `inserts`: punctuation and keywords of the language under test, inserted at random.
    Mutator(uint32_t seed, std::vector<std::string> inserts)
        : rng_(seed), inserts_(std::move(inserts)) {}

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

} // namespace kiln::ir::testing
