#pragma once
// Typed access to JSON object fields with messages that name the object and the field. Shared
// by the graph, machine and schedule readers so their errors read the same way.
#include "expected.h"

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

namespace kiln::schedule::detail {

// `where` names the object, e.g. "graph.json: op 'S'".
struct Fields {
    const nlohmann::json &obj;
    std::string where;

    // Rejects keys outside `known` so a misspelt field is an error, not a silent default.
    Expected<bool> only(const std::set<std::string> &known) const;
    Expected<int64_t> integer(const std::string &key, int64_t fallback, int64_t min) const;
    Expected<int64_t> required_integer(const std::string &key, int64_t min) const;
    Expected<bool> boolean(const std::string &key, bool fallback) const;
    Expected<std::string> string(const std::string &key, const std::string &fallback) const;
    Expected<std::string> required_string(const std::string &key) const;
};

Expected<nlohmann::json> parse_json(const std::string &text, const std::string &source);
Expected<std::string> read_text_file(const std::string &path);

} // namespace kiln::schedule::detail

// Unwraps an Expected or returns its error from the enclosing function (which must return an
// Expected of any type).
#define KILN_SCHED_TRY(var, expr)                                                                  \
    auto var##_or = (expr);                                                                        \
    if (!var##_or)                                                                                 \
        return ::kiln::schedule::Error{var##_or.error()};                                          \
    auto var = std::move(*var##_or)

// Returns the error of an Expected whose value is not needed (a check) from the enclosing
// function.
#define KILN_SCHED_CHECK(expr)                                                                     \
    do {                                                                                           \
        if (auto check_or_ = (expr); !check_or_)                                                   \
            return ::kiln::schedule::Error{check_or_.error()};                                     \
    } while (0)
