#pragma once
// Tokens of the kiln text form (docs/LANGUAGE.md, "Lexical rules"). Newlines are not tokens:
// each token records whether it is the first on its line, which is all the parser needs to
// check that statements are separated by newlines or ';'.
#include "ir/diagnostic.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::ir {

enum class TokenKind {
    Ident,  // [A-Za-z_][A-Za-z0-9_]*
    Int,    // 123
    Float,  // 1.5, 2e-3 (`inf` is an Ident; the expression parser reads it as a literal)
    String, // "name" (no escapes, no newlines)
    Punct,  // ( ) [ ] { } , : = ; . @ + - * / % and ->
    End,    // end of input
};

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text; // the token as written (without quotes for strings)
    int line = 0;
    int col = 0;
    bool first_on_line = false;
    // The text of a `#` comment that follows this token on its line (after the '#'). The event
    // IR keeps such trailing comments as notes; the program language ignores them.
    std::string comment;
    int64_t int_value = 0;
    double float_value = 0;

    bool is(std::string_view punct) const { return kind == TokenKind::Punct && text == punct; }
    bool is_ident(std::string_view word) const { return kind == TokenKind::Ident && text == word; }
    // How the token appears in "found ..." messages: 'x', "str", or end of file.
    std::string describe() const;
};

// Splits `text` into tokens ending with one End token. Fails on a character outside the
// language, an unterminated string, or a numeric literal out of range.
Result<std::vector<Token>> lex(std::string_view text, const std::string& filename);

} // namespace kiln::ir
