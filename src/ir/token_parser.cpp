#include "ir/token_parser.h"

#include "ir/leaf_ops.h"

#include <fstream>
#include <limits>
#include <sstream>

namespace kiln::ir {
namespace {

constexpr Level kLevels[] = {Level::Host, Level::Block, Level::Warpgroup, Level::Warp,
                             Level::Thread};
constexpr Memory kMemories[] = {Memory::Global, Memory::Shared, Memory::Register, Memory::None};
constexpr MmaRole kRoles[] = {MmaRole::Acc, MmaRole::Lhs, MmaRole::Rhs, MmaRole::RhsT,
                              MmaRole::Row};
constexpr mapping::Layout kLayouts[] = {mapping::Layout::RowMajor, mapping::Layout::ColMajor,
                                        mapping::Layout::Swizzle32, mapping::Layout::Swizzle64,
                                        mapping::Layout::Swizzle128};

std::optional<ExprKind> binary_op(const Token& t, int level) {
    if (level == 0 && t.is("+"))
        return ExprKind::Add;
    if (level == 0 && t.is("-"))
        return ExprKind::Sub;
    if (level == 1 && t.is("*"))
        return ExprKind::Mul;
    if (level == 1 && t.is("/"))
        return ExprKind::Div;
    if (level == 1 && t.is("%"))
        return ExprKind::Mod;
    return std::nullopt;
}

} // namespace

std::string where(const Loc& l) {
    return l.file + ":" + std::to_string(l.line) + ":" + std::to_string(l.col);
}

Result<std::string> read_source(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Diagnostic{Loc{}, "cannot read file '" + path + "'"};
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// ---- token cursor ----

const Token& TokenParser::next() {
    const Token& t = toks_[pos_];
    if (pos_ + 1 < toks_.size())
        ++pos_;
    return t;
}

void TokenParser::expected(const std::string& what) const {
    fail(peek(), "expected " + what + ", found " + peek().describe());
}

bool TokenParser::accept(std::string_view punct) {
    if (!peek().is(punct))
        return false;
    next();
    return true;
}

const Token& TokenParser::expect(std::string_view punct, const std::string& context) {
    if (!peek().is(punct))
        expected("'" + std::string(punct) + "' " + context);
    return next();
}

const Token& TokenParser::expect_ident(const std::string& what) {
    if (peek().kind != TokenKind::Ident)
        expected(what);
    return next();
}

void TokenParser::expect_keyword(std::string_view word, const std::string& context) {
    if (!peek().is_ident(word))
        expected("'" + std::string(word) + "' " + context);
    next();
}

const Token& TokenParser::expect_int(const std::string& what) {
    if (peek().kind != TokenKind::Int)
        expected(what);
    return next();
}

void TokenParser::skip_separators() {
    while (peek().is(";"))
        next();
}

void TokenParser::end_statement(const std::string& after) {
    const Token& t = peek();
    if (t.kind == TokenKind::End || t.first_on_line || t.is(";") || t.is("}"))
        return;
    expected("newline or ';' after " + after);
}

TokenParser::NestingGuard::NestingGuard(TokenParser& parser, const Token& at) : p(parser) {
    if (++p.nesting_ > kMaxNesting)
        p.fail(at, "nesting too deep (more than " + std::to_string(kMaxNesting) + " levels)");
}

// ---- vocabularies ----

Privilege TokenParser::parse_privilege() {
    const Token& t = next();
    std::string word = t.text;
    if (t.is_ident("reduce") && peek().is("(")) {
        next();
        const Token& op = next();
        word += "(" + op.text + ")";
        if (!peek().is(")"))
            expected("')' after '" + word.substr(0, word.size() - 1) + "'");
        next();
    }
    for (Privilege p : kPrivileges)
        if (spelling(p) == word)
            return p;
    fail(t, "unknown privilege '" + word + "' (expected one of " + one_of(kPrivileges) + ")");
}

DType TokenParser::parse_dtype_name() {
    const Token& t = peek();
    if (t.kind != TokenKind::Ident)
        expected("a dtype (" + one_of(kDTypes) + ")");
    auto d = parse_dtype(t.text);
    if (!d)
        fail(t, "unknown dtype '" + t.text + "' (expected one of " + one_of(kDTypes) + ")");
    next();
    return *d;
}

Level TokenParser::parse_level_name() {
    const Token& t = expect_ident("a processor level (" + one_of(kLevels) + ")");
    auto l = parse_level(t.text);
    if (!l)
        fail(t,
             "unknown processor level '" + t.text + "' (expected one of " + one_of(kLevels) + ")");
    return *l;
}

Memory TokenParser::parse_memory_name() {
    const Token& m = expect_ident("a memory (" + one_of(kMemories) + ")");
    auto mem = parse_memory(m.text);
    if (!mem)
        fail(m, "unknown memory '" + m.text + "' (expected one of " + one_of(kMemories) + ")");
    return *mem;
}

mapping::Layout TokenParser::parse_layout_name() {
    const Token& l = expect_ident("a layout (" + one_of(kLayouts) + ")");
    auto layout = mapping::parse_layout(l.text);
    if (!layout)
        fail(l, "unknown layout '" + l.text + "' (expected one of " + one_of(kLayouts) + ")");
    return *layout;
}

MmaRole TokenParser::parse_mma_role_name() {
    const Token& role = expect_ident("an mma role (" + one_of(kRoles) + ")");
    auto r = parse_mma_role(role.text);
    if (!r)
        fail(role, "unknown mma role '" + role.text + "' (expected one of " + one_of(kRoles) + ")");
    return *r;
}

// ---- leaf statements ----

LeafOp TokenParser::parse_leaf_op() {
    const Token& name = next();
    const LeafOpInfo* info = find_leaf_op(name.text);
    LeafOp op;
    op.op = name.text;
    op.loc = loc(name);
    next(); // (
    if (info->kind == LeafKind::External) {
        if (peek().kind != TokenKind::String)
            expected("the function name as a string, as in call_external(\"fn\", ...)");
        op.external = next().text;
        if (!accept(","))
            expect(")", "after the arguments of call_external");
        else
            parse_list(")", "after the arguments of call_external",
                       [&] { op.operands.push_back(parse_operand()); });
    } else {
        parse_list(")", "after the operands of " + op.op,
                   [&] { op.operands.push_back(parse_operand()); });
        if (op.operands.size() != info->operands.size())
            fail(name, "leaf operation '" + op.op + "' takes " +
                           std::to_string(info->operands.size()) + " operands, found " +
                           std::to_string(op.operands.size()));
    }
    end_statement("'" + op.op + "'");
    return op;
}

Operand TokenParser::parse_operand() {
    const Token& t = peek();
    if (t.kind == TokenKind::String)
        fail(t, "a string is only allowed as the function name of call_external");
    if (t.kind == TokenKind::Ident && peek(1).is("[")) {
        NestingGuard guard(*this, t);
        TensorRef ref;
        ref.name = next().text;
        ref.loc = loc(t);
        next(); // [
        parse_list("]", "after the indices of '" + ref.name + "'",
                   [&] { ref.indices.push_back(parse_expr().e); });
        return Operand{std::move(ref)};
    }
    return Operand{parse_expr().e};
}

void TokenParser::resolve_tensor_names(std::vector<Operand>& operands,
                                       const std::map<std::string, bool>& scope) {
    for (auto& o : operands) {
        if (o.is_tensor() || o.scalar()->kind != ExprKind::Name)
            continue;
        auto it = scope.find(o.scalar()->name);
        if (it != scope.end() && it->second)
            o.value = TensorRef{o.scalar()->name, {}, o.scalar()->loc};
    }
}

// ---- expressions ----

Parsed TokenParser::parse_binary(int level) {
    Parsed lhs = level == 0 ? parse_binary(1) : parse_unary();
    while (auto kind = binary_op(peek(), level)) {
        const Token& op = next();
        Parsed rhs = level == 0 ? parse_binary(1) : parse_unary();
        lhs = combine(op, {binary(*kind, lhs.e, rhs.e, lhs.e->loc)}, lhs, rhs);
    }
    return lhs;
}

Parsed TokenParser::combine(const Token& at, Parsed node, const Parsed& a, const Parsed& b) {
    node.depth = std::max(a.depth, b.depth) + 1;
    if (node.depth > kMaxNesting)
        fail(at, "nesting too deep (more than " + std::to_string(kMaxNesting) + " levels)");
    return node;
}

// `-` applied to a literal folds into a negative literal, so `-inf` and `-1` are literals.
Parsed TokenParser::parse_unary() {
    if (!peek().is("-"))
        return parse_primary();
    const Token& minus = next();
    NestingGuard guard(*this, minus);
    Parsed operand = parse_unary();
    const Expr& x = *operand.e;
    if (x.kind == ExprKind::Int)
        return {int_lit(-x.int_value, loc(minus)), operand.depth};
    if (x.kind == ExprKind::Float)
        return {float_lit(-x.float_value, loc(minus)), operand.depth};
    return combine(minus, {neg(operand.e, loc(minus))}, operand);
}

Parsed TokenParser::parse_primary() {
    const Token& t = peek();
    Loc at = loc(t);
    switch (t.kind) {
    case TokenKind::Int:
        next();
        return {int_lit(t.int_value, at)};
    case TokenKind::Float:
        next();
        return {float_lit(t.float_value, at)};
    case TokenKind::Ident:
        break;
    default:
        if (t.is("(")) {
            NestingGuard guard(*this, t);
            next();
            Parsed inner = parse_expr();
            expect(")", "to close '(' at " + where(at));
            return inner;
        }
        expected("an expression");
    }
    next();
    if (t.text == "inf")
        return {float_lit(std::numeric_limits<double>::infinity(), at)};
    if (peek().is("("))
        return parse_call(t);
    if (peek().is(".")) {
        next();
        expect_keyword("grid", "after '" + t.text + ".'");
        expect("[", "after '" + t.text + ".grid' in an expression");
        int64_t dim = expect_int("a grid dimension (an integer)").int_value;
        expect("]", "after the grid dimension");
        return {grid_ref(t.text, dim, at)};
    }
    return {name_ref(t.text, at)};
}

// ceildiv(a, b), min(a, b), max(a, b)
Parsed TokenParser::parse_call(const Token& fn) {
    static const std::map<std::string, ExprKind, std::less<>> kFunctions = {
        {"ceildiv", ExprKind::CeilDiv}, {"min", ExprKind::Min}, {"max", ExprKind::Max}};
    auto it = kFunctions.find(fn.text);
    if (it == kFunctions.end())
        fail(fn, "unknown function '" + fn.text + "' (expected ceildiv, min or max)");
    NestingGuard guard(*this, fn);
    next(); // (
    Parsed a = parse_expr();
    expect(",", "after the first argument of " + fn.text);
    Parsed b = parse_expr();
    expect(")", "after the second argument of " + fn.text);
    return combine(fn, {binary(it->second, a.e, b.e, loc(fn))}, a, b);
}

} // namespace kiln::ir
