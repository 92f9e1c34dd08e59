#include "ir/lexer.h"

#include <charconv>
#include <cstdio>

namespace kiln::ir {

std::string Token::describe() const {
    switch (kind) {
    case TokenKind::End:
        return "end of file";
    case TokenKind::String:
        return "string \"" + text + "\"";
    default:
        return "'" + text + "'";
    }
}

namespace {

bool is_ident_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
    return c >= '0' && c <= '9';
}
bool is_ident_char(char c) {
    return is_ident_start(c) || is_digit(c);
}

std::string printable(char c) {
    if (c >= 0x20 && c < 0x7f)
        return std::string(1, c);
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
    return buf;
}

class Lexer {
public:
    Lexer(std::string_view text, const std::string& filename) : s_(text), file_(filename) {}

    std::vector<Token> run() {
        std::vector<Token> out;
        out.reserve(s_.size() / 4); // about one token per four bytes of typical source
        for (;;) {
            bool newline = skip_space_and_comments(out);
            Token t;
            t.line = line_;
            t.col = col();
            t.first_on_line = newline;
            if (i_ >= s_.size()) {
                out.push_back(std::move(t));
                return out;
            }
            read_token(t);
            out.push_back(std::move(t));
        }
    }

private:
    std::string_view s_;
    const std::string& file_;
    std::size_t i_ = 0;
    int line_ = 1;
    std::size_t line_start_ = 0;
    bool at_first_token_ = true;

    int col() const { return static_cast<int>(i_ - line_start_) + 1; }

    [[noreturn]] void fail(int line, int col, std::string message) const {
        fail_at(Loc{file_, line, col}, std::move(message));
    }

    // Returns true when a newline (or the start of the input) precedes the next token. A comment
    // after a token on the same line is recorded on that token.
    bool skip_space_and_comments(std::vector<Token>& out) {
        bool newline = at_first_token_;
        at_first_token_ = false;
        while (i_ < s_.size()) {
            char c = s_[i_];
            if (c == '\n') {
                ++i_;
                ++line_;
                line_start_ = i_;
                newline = true;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                ++i_;
            } else if (c == '#') {
                std::size_t b = ++i_;
                while (i_ < s_.size() && s_[i_] != '\n')
                    ++i_;
                if (!newline && !out.empty())
                    out.back().comment = std::string(s_.substr(b, i_ - b));
            } else {
                break;
            }
        }
        return newline;
    }

    void read_token(Token& t) {
        char c = s_[i_];
        if (is_ident_start(c)) {
            std::size_t b = i_;
            while (i_ < s_.size() && is_ident_char(s_[i_]))
                ++i_;
            t.kind = TokenKind::Ident;
            t.text = std::string(s_.substr(b, i_ - b));
        } else if (is_digit(c)) {
            read_number(t);
        } else if (c == '"') {
            read_string(t);
        } else if (c == '-' && i_ + 1 < s_.size() && s_[i_ + 1] == '>') {
            t.kind = TokenKind::Punct;
            t.text = "->";
            i_ += 2;
        } else if (std::string_view("()[]{},:=;.@+-*/%").find(c) != std::string_view::npos) {
            t.kind = TokenKind::Punct;
            t.text = std::string(1, c);
            ++i_;
        } else {
            fail(t.line, t.col, "unexpected character '" + printable(c) + "'");
        }
    }

    void skip_digits() {
        while (i_ < s_.size() && is_digit(s_[i_]))
            ++i_;
    }

    // digits ['.' digits] [('e'|'E') ['+'|'-'] digits]; a '.' or exponent makes it a float.
    void read_number(Token& t) {
        std::size_t b = i_;
        skip_digits();
        bool is_float = false;
        if (i_ + 1 < s_.size() && s_[i_] == '.' && is_digit(s_[i_ + 1])) {
            ++i_;
            skip_digits();
            is_float = true;
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
            std::size_t j = i_ + 1;
            if (j < s_.size() && (s_[j] == '+' || s_[j] == '-'))
                ++j;
            if (j < s_.size() && is_digit(s_[j])) {
                i_ = j;
                skip_digits();
                is_float = true;
            }
        }
        t.text = std::string(s_.substr(b, i_ - b));
        const char* first = t.text.data();
        const char* last = first + t.text.size();
        if (is_float) {
            t.kind = TokenKind::Float;
            auto r = std::from_chars(first, last, t.float_value);
            if (r.ec != std::errc() || r.ptr != last)
                fail(t.line, t.col, "float literal '" + t.text + "' is out of range");
        } else {
            t.kind = TokenKind::Int;
            auto r = std::from_chars(first, last, t.int_value);
            if (r.ec != std::errc() || r.ptr != last)
                fail(t.line, t.col, "integer literal '" + t.text + "' is too large");
        }
    }

    void read_string(Token& t) {
        std::size_t b = ++i_;
        while (i_ < s_.size() && s_[i_] != '"' && s_[i_] != '\n')
            ++i_;
        if (i_ >= s_.size() || s_[i_] != '"')
            fail(t.line, t.col, "unterminated string");
        t.kind = TokenKind::String;
        t.text = std::string(s_.substr(b, i_ - b));
        ++i_;
    }
};

} // namespace

Result<std::vector<Token>> lex(std::string_view text, const std::string& filename) {
    try {
        return Lexer(text, filename).run();
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

} // namespace kiln::ir
