#pragma once
// The `mapping { ... }` block of the program text form (docs/LANGUAGE.md): instances with their
// attributes, and the entry. A part of the program parser (parser.cpp), which derives from it
// to share the token cursor. Duplicates (a second mapping, entry, instance name or once-only
// attribute) are errors that point at the first occurrence.
#include "ir/token_parser.h"

#include <map>

namespace kiln::ir {

class MappingParser : public TokenParser {
public:
    using TokenParser::TokenParser;

protected:
    // At the 'mapping' keyword: reads the block into `m` (whose Loc says whether one was read).
    void parse_mapping(mapping::Mapping& m);

private:
    void parse_entry(mapping::Mapping& m);
    // instance NAME : VARIANT @ LEVEL { ATTRIBUTES }
    void parse_instance(mapping::Mapping& m);
    // Fails if `key` (a binding's subject or a once-only attribute) was already given.
    void check_unique(std::map<std::string, Loc>& seen, const std::string& key,
                      const std::string& what, const Token& at, const mapping::Instance& inst);
    void parse_attribute(mapping::Instance& inst, std::map<std::string, Loc>& seen);
    // BYTES or N KiB (also written NKiB)
    int64_t parse_bytes();
};

} // namespace kiln::ir
