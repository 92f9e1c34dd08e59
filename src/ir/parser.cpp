#include "ir/parser.h"

#include "ir/leaf_ops.h"
#include "ir/mapping_parser.h"

#include <limits>
#include <map>

namespace kiln::ir {
namespace {

class Parser : public MappingParser {
public:
    Parser(std::vector<Token> tokens, const std::string& file)
        : MappingParser(std::move(tokens), file) {}

    Program run() {
        for (skip_separators(); !at_end(); skip_separators()) {
            parse_declaration();
        }
        resolve_operands();
        return std::move(prog_);
    }

private:
    Program prog_;
    std::vector<Loc> variant_task_locs_; // where each variant names its task

    // ---- top level ----

    void parse_declaration() {
        const Token& t = peek();
        if (t.is_ident("program"))
            parse_program_name();
        else if (t.is_ident("sizes"))
            parse_sizes();
        else if (t.is_ident("reference"))
            parse_reference();
        else if (t.is_ident("task"))
            parse_task();
        else if (t.is_ident("variant"))
            parse_variant();
        else if (t.is_ident("mapping"))
            parse_mapping(prog_.mapping);
        else
            expected("a declaration (program, sizes, reference, task, variant or mapping)");
    }

    void parse_program_name() {
        const Token& kw = next();
        if (!prog_.name.empty())
            fail(kw, "duplicate 'program' declaration (first at " + where(prog_.loc) + ")");
        prog_.loc = loc(kw);
        prog_.name = expect_ident("a program name after 'program'").text;
        end_statement("'program " + prog_.name + "'");
    }

    void parse_sizes() {
        next();
        do {
            const Token& name = expect_ident("a size symbol");
            for (const auto& s : prog_.sizes)
                if (s.name == name.text)
                    fail(name, "duplicate size '" + name.text + "' (first defined at " +
                                   where(s.loc) + ")");
            expect("=", "after size symbol '" + name.text + "'");
            int64_t v = expect_int("an integer size for '" + name.text + "'").int_value;
            prog_.sizes.push_back(SizeBinding{name.text, v, loc(name)});
        } while (accept(","));
        end_statement("'sizes'");
    }

    // A number with an optional sign: reference attributes such as `scale = 0.125`.
    double parse_signed_number(const std::string& what) {
        bool negative = accept("-");
        const Token& t = peek();
        double v;
        if (t.kind == TokenKind::Int)
            v = static_cast<double>(t.int_value);
        else if (t.kind == TokenKind::Float)
            v = t.float_value;
        else if (t.is_ident("inf"))
            v = std::numeric_limits<double>::infinity();
        else
            expected(what);
        next();
        return negative ? -v : v;
    }

    void parse_reference() {
        const Token& kw = next();
        if (prog_.reference)
            fail(kw, "duplicate 'reference' declaration (first at " + where(prog_.reference->loc) +
                         ")");
        Reference ref;
        ref.loc = loc(kw);
        ref.name = expect_ident("a reference name after 'reference'").text;
        expect("(", "after reference name '" + ref.name + "'");
        parse_list(")", "after reference arguments", [&] {
            ReferenceArg arg;
            arg.name = expect_ident("a reference argument").text;
            if (accept("="))
                arg.value = parse_signed_number("a number after '" + arg.name + " ='");
            ref.args.push_back(std::move(arg));
        });
        prog_.reference = std::move(ref);
        end_statement("'reference'");
    }

    void parse_task() {
        const Token& kw = next();
        Task task;
        task.loc = loc(kw);
        task.name = expect_ident("a task name after 'task'").text;
        if (const Task* first = prog_.find_task(task.name))
            fail(kw,
                 "duplicate task '" + task.name + "' (first defined at " + where(first->loc) + ")");
        expect("(", "after task name '" + task.name + "'");
        parse_list(")", "after the parameters of task '" + task.name + "'", [&] {
            Param p = parse_param();
            if (const Param* first = task.find_param(p.name))
                fail_at(p.loc, "duplicate parameter '" + p.name + "' in task '" + task.name +
                                   "' (first defined at " + where(first->loc) + ")");
            task.params.push_back(std::move(p));
        });
        end_statement("task '" + task.name + "'");
        prog_.tasks.push_back(std::move(task));
    }

    // NAME: PRIVILEGE DTYPE[DIMS]  or  NAME: i32 | f32
    Param parse_param() {
        const Token& name = expect_ident("a parameter name");
        Param p;
        p.name = name.text;
        p.loc = loc(name);
        expect(":", "after parameter name '" + p.name + "'");
        const Token& t = peek();
        if (t.kind != TokenKind::Ident)
            expected("a privilege or scalar type for parameter '" + p.name + "'");
        if (auto scalar = parse_dtype(t.text)) {
            if (peek(1).is("["))
                fail(t, "tensor parameter '" + p.name + "' needs a privilege (" +
                            one_of(kPrivileges) + ") before its dtype");
            if (*scalar != DType::I32 && *scalar != DType::F32)
                fail(t, "scalar parameter '" + p.name + "' must be i32 or f32, found '" + t.text +
                            "'");
            next();
            p.is_tensor = false;
            p.dtype = *scalar;
            return p;
        }
        bool privilege_word =
            t.text == "read" || t.text == "write" || t.text == "rw" || t.text == "reduce";
        if (!privilege_word && peek(1).kind != TokenKind::Ident)
            fail(t, "unknown dtype '" + t.text + "' (expected one of " + one_of(kDTypes) + ")");
        p.privilege = parse_privilege();
        p.dtype = parse_dtype_name();
        expect("[", "after the dtype of parameter '" + p.name + "'");
        parse_list("]", "after tensor dimensions", [&] {
            Parsed d = parse_expr();
            if (d.e->kind != ExprKind::Int && d.e->kind != ExprKind::Name)
                fail_at(d.e->loc, "a parameter dimension is an integer or a shape symbol, found '" +
                                      to_string(d.e) + "'");
            p.shape.push_back(d.e);
        });
        return p;
    }

    void parse_variant() {
        const Token& kw = next();
        Variant v;
        v.loc = loc(kw);
        v.name = expect_ident("a variant name after 'variant'").text;
        if (const Variant* first = prog_.find_variant(v.name))
            fail(kw,
                 "duplicate variant '" + v.name + "' (first defined at " + where(first->loc) + ")");
        expect_keyword("of", "after variant name '" + v.name + "'");
        const Token& task = expect_ident("a task name after 'of'");
        v.task = task.text;
        if (peek().is_ident("leaf"))
            v.is_leaf = true;
        else if (!peek().is_ident("inner"))
            expected("'inner' or 'leaf' after 'variant " + v.name + " of " + v.task + "'");
        next();
        v.body = parse_block(v.is_leaf, "after 'variant " + v.name + " of " + v.task + " " +
                                            (v.is_leaf ? "leaf'" : "inner'"));
        end_statement("variant '" + v.name + "'");
        prog_.variants.push_back(std::move(v));
        variant_task_locs_.push_back(loc(task));
    }

    // ---- statements ----

    // { STMT* }; `context` says what the block belongs to, for the message if '{' is missing.
    std::vector<Stmt> parse_block(bool leaf, const std::string& context) {
        const Token& open = expect("{", context);
        NestingGuard guard(*this, open);
        std::vector<Stmt> body;
        for (skip_separators(); !peek().is("}"); skip_separators()) {
            if (at_end())
                expected("'}' to close the block opened at " + where(loc(open)));
            body.push_back(parse_statement(leaf));
        }
        next();
        return body;
    }

    Stmt parse_statement(bool leaf) {
        const Token& t = peek();
        const char* where_leaf = " is not allowed in a leaf variant";
        if (t.is_ident("let"))
            return parse_let(leaf);
        if (t.is_ident("tunable")) {
            if (leaf)
                fail(t, "tunable" + std::string(where_leaf));
            return parse_tunable();
        }
        if (t.is_ident("launch")) {
            if (leaf)
                fail(t, "launch" + std::string(where_leaf));
            return parse_launch();
        }
        if (t.is_ident("srange") || t.is_ident("prange")) {
            if (leaf)
                fail(t, t.text + where_leaf);
            return parse_loop();
        }
        if (t.kind == TokenKind::Ident && peek(1).is("(")) {
            bool builtin = find_leaf_op(t.text) != nullptr;
            if (leaf && !builtin)
                fail(t, "unknown leaf operation '" + t.text + "'");
            if (!leaf && builtin)
                fail(t, "leaf operation '" + t.text + "' is not allowed in an inner variant");
            if (leaf)
                return Stmt{parse_leaf_op()};
        }
        expected(leaf ? "a leaf operation or 'let'"
                      : "a statement (tunable, let, launch, srange or prange)");
    }

    Stmt parse_tunable() {
        const Token& kw = next();
        TunableDecl d;
        d.loc = loc(kw);
        do {
            d.names.push_back(expect_ident("a tunable name").text);
        } while (accept(","));
        end_statement("'tunable'");
        return Stmt{std::move(d)};
    }

    Stmt parse_let(bool leaf) {
        const Token& kw = next();
        const Token& name_tok = expect_ident("a name after 'let'");
        std::string name = name_tok.text;
        expect("=", "after 'let " + name + "'");
        const Token& t = peek();
        bool is_tensor =
            t.is_ident("tensor") && peek(1).kind == TokenKind::Ident && !peek(1).first_on_line;
        if (leaf && !is_tensor)
            fail(t, "only 'let " + name + " = tensor ...' is allowed in a leaf variant");
        Stmt s;
        if (is_tensor)
            s = Stmt{parse_let_tensor(name, loc(kw))};
        else if (t.is_ident("blocks") && peek(1).is("("))
            s = Stmt{parse_blocks(name, loc(kw))};
        else if (t.is_ident("mma") && peek(1).is("("))
            s = Stmt{parse_mma(name, loc(kw))};
        else
            s = Stmt{LetScalar{name, parse_expr().e, loc(kw)}};
        end_statement("'let " + name + "'");
        return s;
    }

    LetTensor parse_let_tensor(const std::string& name, Loc at) {
        next(); // tensor
        LetTensor lt;
        lt.name = name;
        lt.loc = std::move(at);
        lt.dtype = parse_dtype_name();
        expect("[", "after the dtype of tensor '" + name + "'");
        parse_list("]", "after tensor dimensions", [&] { lt.shape.push_back(parse_expr().e); });
        return lt;
    }

    std::string parse_partition_source(const char* op) {
        next(); // blocks | mma
        expect("(", std::string("after '") + op + "'");
        std::string source =
            expect_ident(std::string("a tensor name as the first argument of ") + op).text;
        expect(",", "after '" + std::string(op) + "(" + source + "'");
        return source;
    }

    // blocks(T, [TILE], pad)
    LetBlocks parse_blocks(const std::string& name, Loc at) {
        LetBlocks b;
        b.name = name;
        b.loc = std::move(at);
        b.source = parse_partition_source("blocks");
        expect("[", "before tile dimensions");
        parse_list("]", "after tile dimensions", [&] {
            // `_` marks a squeezed dimension: the tree that prints as `_` (also `(_)`) means it.
            ExprPtr d = parse_expr().e;
            b.tile.push_back(d->kind == ExprKind::Name && d->name == "_" ? nullptr : d);
        });
        if (accept(",")) {
            expect_keyword("pad", "after tile dimensions");
            b.remainder = Remainder::Pad;
        }
        expect(")", "after the arguments of blocks");
        return b;
    }

    // mma(T, ROLE, LEVEL[, N]) — N (the instruction's N) at WARPGROUP level only
    LetMma parse_mma(const std::string& name, Loc at) {
        LetMma m;
        m.name = name;
        m.loc = std::move(at);
        m.source = parse_partition_source("mma");
        const Token& role = peek();
        m.role = parse_mma_role_name();
        expect(",", "after the mma role");
        m.level = parse_level_name();
        if (accept(",")) {
            const Token& at_n = peek();
            m.n = parse_expr().e;
            if (m.level != Level::Warpgroup)
                fail(at_n, "the instruction N of an mma partition is given at WARPGROUP level "
                           "only");
        } else if (m.level == Level::Warpgroup) {
            fail(peek(), "an mma partition at WARPGROUP level needs the instruction N, e.g. "
                         "mma(" +
                             m.source + ", " + role.text + ", WARPGROUP, 256)");
        }
        expect(")", "after the arguments of mma");
        return m;
    }

    // launch [LABEL] TASK(ARGS)
    Stmt parse_launch() {
        const Token& kw = next();
        Launch l;
        l.loc = loc(kw);
        if (accept("[")) {
            l.label = expect_ident("a launch label").text;
            expect("]", "after launch label '" + l.label + "'");
        }
        l.task = expect_ident("a task name after 'launch'").text;
        expect("(", "after 'launch " + l.task + "'");
        parse_list(")", "after the arguments of '" + l.task + "'",
                   [&] { l.args.push_back(parse_operand()); });
        end_statement("launch of '" + l.task + "'");
        return Stmt{std::move(l)};
    }

    // srange VARS in DOMAIN [limit E] { BODY }: VARS is `i` or `(i, j)`; DOMAIN is `[E, ...]` or
    // `P.grid`.
    Stmt parse_loop() {
        const Token& kw = next();
        Loop loop;
        loop.parallel = kw.text == "prange";
        loop.loc = loc(kw);
        if (accept("("))
            parse_list(")", "after loop variables",
                       [&] { loop.vars.push_back(expect_ident("a loop variable").text); });
        else
            loop.vars.push_back(expect_ident("a loop variable after '" + kw.text + "'").text);
        if (loop.vars.empty())
            fail(kw, kw.text + " needs at least one loop variable");
        expect_keyword("in", "after loop variables");
        if (accept("[")) {
            parse_list("]", "after loop extents", [&] { loop.extents.push_back(parse_expr().e); });
            if (loop.extents.size() != loop.vars.size())
                fail(kw, kw.text + " has " + std::to_string(loop.vars.size()) +
                             " variable(s) but " + std::to_string(loop.extents.size()) +
                             " extent(s)");
        } else {
            loop.grid_of = expect_ident("a loop domain ('[EXTENTS]' or 'PARTITION.grid')").text;
            expect(".", "after '" + loop.grid_of + "' in a loop domain");
            expect_keyword("grid", "after '" + loop.grid_of + ".'");
        }
        if (peek().kind == TokenKind::Ident && peek().text == "limit") {
            const Token& at = next();
            if (loop.parallel || loop.vars.size() != 1)
                fail(at, "'limit' needs a one-variable srange; this is a " + kw.text + " over " +
                             std::to_string(loop.vars.size()) + " variable(s)");
            loop.limit = parse_expr().e;
        }
        loop.body = parse_block(false, "after the loop domain");
        end_statement("the body of " + kw.text);
        return Stmt{std::move(loop)};
    }

    // ---- operand resolution (needs every task signature, so it runs after parsing) ----

    using Scope = std::map<std::string, bool>; // name -> names a tensor

    void resolve_operands() {
        for (std::size_t i = 0; i < prog_.variants.size(); ++i) {
            Variant& v = prog_.variants[i];
            const Task* task = prog_.find_task(v.task);
            if (!task)
                fail_at(variant_task_locs_[i],
                        "variant '" + v.name + "' is of unknown task '" + v.task + "'");
            Scope scope;
            for (const auto& p : task->params)
                scope[p.name] = p.is_tensor;
            resolve_block(v.body, scope);
        }
    }

    static void resolve_block(std::vector<Stmt>& body, Scope scope) {
        for (auto& s : body) {
            if (auto* d = std::get_if<TunableDecl>(&s.node))
                for (const auto& n : d->names)
                    scope[n] = false;
            else if (auto* t = std::get_if<LetTensor>(&s.node))
                scope[t->name] = true;
            else if (auto* b = std::get_if<LetBlocks>(&s.node))
                scope[b->name] = true;
            else if (auto* m = std::get_if<LetMma>(&s.node))
                scope[m->name] = true;
            else if (auto* x = std::get_if<LetScalar>(&s.node))
                scope[x->name] = false;
            else if (auto* l = std::get_if<Launch>(&s.node))
                resolve_tensor_names(l->args, scope);
            else if (auto* op = std::get_if<LeafOp>(&s.node))
                resolve_tensor_names(op->operands, scope);
            else if (auto* loop = std::get_if<Loop>(&s.node)) {
                Scope inner = scope;
                for (const auto& v : loop->vars)
                    inner[v] = false;
                resolve_block(loop->body, std::move(inner));
            }
        }
    }
};

} // namespace

Result<Program> parse_program(std::string_view text, const std::string& filename) {
    auto tokens = lex(text, filename);
    if (!tokens)
        return tokens.errors();
    try {
        return Parser(std::move(tokens).value(), filename).run();
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

Result<Program> parse_file(const std::string& path) {
    auto text = read_source(path);
    if (!text)
        return text.errors();
    return parse_program(*text, path);
}

} // namespace kiln::ir
