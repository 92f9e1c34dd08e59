#include "json_fields.h"

#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace kiln::schedule::detail {

using nlohmann::json;

Expected<bool> Fields::only(const std::set<std::string> &known) const {
    for (const auto &[key, value] : obj.items())
        if (!known.count(key))
            return Error{fmt::format("{}: unknown field '{}'", where, key)};
    return true;
}

Expected<int64_t> Fields::integer(const std::string &key, int64_t fallback, int64_t min) const {
    auto it = obj.find(key);
    if (it == obj.end())
        return fallback;
    if (!it->is_number_integer())
        return Error{fmt::format("{}: field '{}' must be an integer", where, key)};
    int64_t v = it->get<int64_t>();
    if (v < min)
        return Error{fmt::format("{}: field '{}' must be at least {}, got {}", where, key, min, v)};
    return v;
}

Expected<int64_t> Fields::required_integer(const std::string &key, int64_t min) const {
    if (!obj.contains(key))
        return Error{fmt::format("{}: missing field '{}'", where, key)};
    return integer(key, 0, min);
}

Expected<bool> Fields::boolean(const std::string &key, bool fallback) const {
    auto it = obj.find(key);
    if (it == obj.end())
        return fallback;
    if (!it->is_boolean())
        return Error{fmt::format("{}: field '{}' must be true or false", where, key)};
    return it->get<bool>();
}

Expected<std::string> Fields::string(const std::string &key, const std::string &fallback) const {
    auto it = obj.find(key);
    if (it == obj.end())
        return fallback;
    if (!it->is_string())
        return Error{fmt::format("{}: field '{}' must be a string", where, key)};
    return it->get<std::string>();
}

Expected<std::string> Fields::required_string(const std::string &key) const {
    if (!obj.contains(key))
        return Error{fmt::format("{}: missing field '{}'", where, key)};
    return string(key, "");
}

Expected<json> parse_json(const std::string &text, const std::string &source) {
    try {
        return json::parse(text);
    } catch (const json::parse_error &e) {
        return Error{fmt::format("{}: invalid JSON: {}", source, e.what())};
    }
}

Expected<std::string> read_text_file(const std::string &path) {
    std::ifstream in(path);
    if (!in)
        return Error{fmt::format("{}: cannot open file", path)};
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace kiln::schedule::detail
