#pragma once
// The recursive-descent machinery shared by the parsers of the program text form (parser.cpp)
// and of the event IR text form (event_parser.cpp): a cursor over the lexer's tokens with
// "expected X, found Y" errors, bounded nesting, and the constructs both languages share —
// expressions, leaf-statement operands and leaf statements, and the closed vocabularies (dtype,
// privilege, processor level, memory, layout, mma role).
//
// Errors unwind as DiagnosticError to the parser's entry point, which returns the Diagnostic.
#include "ir/lexer.h"
#include "ir/program.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace kiln::ir {

// Deeper expressions or blocks are rejected: recursive descent (and every recursive walk of the
// tree afterwards) must not exhaust the stack on hostile input.
constexpr int kMaxNesting = 200;

// "file:line:col", for messages that point at a second place.
std::string where(const Loc& l);

// The whole file at `path`; a file that cannot be read is a Diagnostic naming it.
Result<std::string> read_source(const std::string& path);

// The closed vocabularies, spelled for "expected one of ..." messages.
inline constexpr DType kDTypes[] = {DType::F32,    DType::F16,    DType::BF16,
                                    DType::F8E4M3, DType::F8E5M2, DType::I32};
inline constexpr Privilege kPrivileges[] = {Privilege::Read, Privilege::Write, Privilege::ReadWrite,
                                            Privilege::ReduceAdd, Privilege::ReduceMax};

// "a, b, c": the spellings of a closed vocabulary.
template <class E, std::size_t N> std::string one_of(const E (&values)[N]) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i)
        out += (i ? ", " : "") + std::string(spelling(values[i]));
    return out;
}

// An expression with the depth of its tree, so that depth is bounded while it is built.
struct Parsed {
    ExprPtr e;
    int depth = 1;
};

class TokenParser {
public:
    TokenParser(std::vector<Token> tokens, const std::string& file)
        : toks_(std::move(tokens)), file_(file) {}

protected:
    // ---- token cursor ----
    const Token& peek(std::size_t k = 0) const {
        return toks_[std::min(pos_ + k, toks_.size() - 1)];
    }
    const Token& next();
    // The token `next` returned last (the last one of a finished statement).
    const Token& previous() const { return toks_[pos_ == 0 ? 0 : pos_ - 1]; }
    bool at_end() const { return peek().kind == TokenKind::End; }
    Loc loc(const Token& t) const { return Loc{file_, t.line, t.col}; }

    [[noreturn]] void fail(const Token& t, std::string message) const {
        fail_at(loc(t), std::move(message));
    }
    [[noreturn]] void expected(const std::string& what) const;
    bool accept(std::string_view punct);
    // expect("]", "after tile dimensions") fails with "expected ']' after tile dimensions, ..."
    const Token& expect(std::string_view punct, const std::string& context);
    const Token& expect_ident(const std::string& what);
    void expect_keyword(std::string_view word, const std::string& context);
    const Token& expect_int(const std::string& what);
    void skip_separators();
    // Statements are separated by newlines or ';' (a '}' also ends the last one of a block).
    void end_statement(const std::string& after);

    // Bounds the recursion of the descent; one guard per nested construct.
    struct NestingGuard {
        TokenParser& p;
        NestingGuard(TokenParser& parser, const Token& at);
        ~NestingGuard() { --p.nesting_; }
    };

    // Runs `item` for each element of "a, b, c CLOSE" (the opening token is already consumed).
    template <class F> void parse_list(std::string_view close, const std::string& context, F item) {
        if (accept(close))
            return;
        do {
            item();
        } while (accept(","));
        expect(close, context);
    }

    // ---- vocabularies ----
    Privilege parse_privilege();
    DType parse_dtype_name();
    Level parse_level_name();
    Memory parse_memory_name();
    mapping::Layout parse_layout_name();
    MmaRole parse_mma_role_name();

    // ---- expressions: + - (left assoc) < * / % (left assoc) < unary - < primary ----
    Parsed parse_expr() { return parse_binary(0); }

    // ---- leaf statements ----
    // `P[i, j]` is a TensorRef; anything else is parsed as an expression (resolve_tensor_names
    // later turns a bare name of a tensor in scope into a TensorRef).
    Operand parse_operand();
    // OP(OPERANDS) or call_external("fn", OPERANDS); the caller checked that OP is a leaf op.
    LeafOp parse_leaf_op();
    // Bare-name operands that name a tensor (scope: name -> names a tensor) become TensorRefs.
    static void resolve_tensor_names(std::vector<Operand>& operands,
                                     const std::map<std::string, bool>& scope);

    const std::string& file() const { return file_; }

private:
    std::vector<Token> toks_;
    const std::string& file_;
    std::size_t pos_ = 0;
    int nesting_ = 0;

    Parsed parse_binary(int level);
    Parsed combine(const Token& at, Parsed node, const Parsed& a, const Parsed& b = {});
    Parsed parse_unary();
    Parsed parse_primary();
    Parsed parse_call(const Token& fn);
};

} // namespace kiln::ir
