#include "ir/event_parser.h"

#include "ir/leaf_ops.h"
#include "ir/token_parser.h"

namespace kiln::event {
namespace {

using ir::Token;
using ir::TokenKind;

// What a view's name denotes, as far as partitioning it again needs.
struct ViewTarget {
    bool partition = false;
    Shape shape; // a tensor's instance shape, or a partition's piece shape
};

std::string trimmed(const std::string& s) {
    std::size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos)
        return "";
    return s.substr(b, s.find_last_not_of(" \t\r") + 1 - b);
}

constexpr Role kRoles[] = {Role::Any, Role::Dma, Role::Compute};

class EventParser : public ir::TokenParser {
public:
    EventParser(std::vector<Token> tokens, const std::string& file)
        : TokenParser(std::move(tokens), file) {}

    EventProgram run() {
        parse_header();
        for (skip_separators(); peek().is_ident("leaf"); skip_separators())
            parse_leaf();
        scopes_.emplace_back();
        prog_.body = parse_block(nullptr);
        return std::move(prog_);
    }

private:
    EventProgram prog_;
    std::vector<std::map<std::string, ViewTarget>> scopes_; // one per enclosing body
    std::vector<ir::Level> issuers_{ir::Level::Host};       // the level running each body

    // ---- small pieces ----

    // A keyword attribute continues the current line; the same word on a new line starts the
    // next statement.
    bool accept_keyword(std::string_view word) {
        if (!peek().is_ident(word) || peek().first_on_line)
            return false;
        next();
        return true;
    }

    // '[' INT {',' INT} ']' with the '[' already consumed.
    Shape parse_ints(const std::string& what, const std::string& close_context) {
        Shape out;
        parse_list("]", close_context, [&] { out.push_back(expect_int(what).int_value); });
        return out;
    }

    int64_t parse_assigned_int(const std::string& name) {
        expect("=", "after '" + name + "'");
        return expect_int("an integer after '" + name + " ='").int_value;
    }

    // The note of the statement whose last token is `last`.
    std::string note_of(const Token& last) const { return trimmed(last.comment); }

    void finish(Op& op, const std::string& what) {
        end_statement(what);
        op.note = note_of(previous());
    }

    // NAME or NAME '[' expr {',' expr} ']'
    View parse_view(const std::string& what) {
        const Token& name = expect_ident(what);
        View v{name.text, {}};
        if (!peek().is("["))
            return v;
        NestingGuard guard(*this, name);
        next();
        do {
            v.index.push_back(parse_expr().e);
        } while (accept(","));
        expect("]", "after the index of '" + v.name + "'");
        return v;
    }

    const ViewTarget* lookup(const std::string& name) const {
        for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
            if (auto found = it->find(name); found != it->end())
                return &found->second;
        return nullptr;
    }

    // The shape of the tensor piece `v` names, for partitioning it again.
    Shape view_shape(const View& v, const Token& at) const {
        const ViewTarget* t = lookup(v.name);
        if (!t)
            fail(at, "unknown tensor or partition '" + v.name + "'");
        if (t->partition && v.whole())
            fail(at, "partition '" + v.name + "' needs an index to name the piece to partition");
        if (!t->partition && !v.whole())
            fail(at, "'" + v.name + "' is a tensor, not a partition: it has no index");
        return t->shape;
    }

    std::string parse_event_id() {
        const Token& t = peek();
        if (t.kind != TokenKind::Ident && t.kind != TokenKind::Int)
            expected("an event name after '%'");
        return next().text;
    }

    // ['cross'] '%' ID ['[' idx {',' idx} ']'] ['@-' INT]
    EventRef parse_ref() {
        EventRef r;
        if (peek().is_ident("cross")) {
            next();
            r.cross = true;
        }
        if (!peek().is("%"))
            expected("an event reference ('%name')");
        const Token& pct = next();
        r.id = parse_event_id();
        if (peek().is("[")) {
            NestingGuard guard(*this, pct);
            next();
            do {
                r.index.push_back(accept(":") ? nullptr : parse_expr().e);
            } while (accept(","));
            expect("]", "after the index of '%" + r.id + "'");
        }
        if (peek().is("@") && peek(1).is("-")) {
            next();
            next();
            const Token& d = expect_int("a loop distance after '@-'");
            if (d.int_value == 0)
                fail(d, "the loop distance of '%" + r.id + "' must be positive");
            r.distance = d.int_value;
        }
        return r;
    }

    std::vector<EventRef> parse_refs() {
        std::vector<EventRef> refs;
        expect("[", "after 'after'");
        parse_list("]", "after the event references", [&] { refs.push_back(parse_ref()); });
        return refs;
    }

    // '(' NAME ':' LEVEL INT {',' ...} ')'
    std::vector<ProcDim> parse_over() {
        std::vector<ProcDim> dims;
        expect("(", "after 'over'");
        parse_list(")", "after the dimensions of 'over'", [&] {
            ProcDim d;
            d.var = expect_ident("a processor variable").text;
            expect(":", "after processor variable '" + d.var + "'");
            d.level = parse_level_name();
            d.extent = expect_int("the extent of processor variable '" + d.var + "'").int_value;
            dims.push_back(std::move(d));
        });
        return dims;
    }

    Role parse_role() {
        const Token& t = expect_ident("a role (" + ir::one_of(kRoles) + ")");
        for (Role r : kRoles)
            if (spelling(r) == t.text)
                return r;
        fail(t, "unknown role '" + t.text + "' (expected one of " + ir::one_of(kRoles) + ")");
    }

    // '@' LEVEL [over]: returns the level; `over` goes to the op.
    ir::Level parse_level_and_over(Op& op) {
        expect("@", "before the processor level of '%" + op.result + "'");
        ir::Level level = parse_level_name();
        if (accept_keyword("over"))
            op.over = parse_over();
        return level;
    }

    // ['role' ROLE] ['after' refs]
    void parse_role_and_after(Op& op) {
        if (accept_keyword("role"))
            op.role = parse_role();
        if (accept_keyword("after"))
            op.after = parse_refs();
    }

    // ---- header and leaf definitions ----

    void parse_header() {
        skip_separators();
        expect_keyword("event_program", "at the start of an event program");
        prog_.name = expect_ident("a program name after 'event_program'").text;
        end_statement("'event_program " + prog_.name + "'");
        skip_separators();
        if (!peek().is_ident("sizes"))
            return;
        next();
        do {
            const Token& name = expect_ident("a size symbol");
            if (prog_.sizes.count(name.text))
                fail(name, "duplicate size '" + name.text + "'");
            expect("=", "after size symbol '" + name.text + "'");
            prog_.sizes[name.text] =
                expect_int("an integer size for '" + name.text + "'").int_value;
        } while (accept(","));
        end_statement("'sizes'");
    }

    // NAME ':' PRIV DTYPE '[' INT {',' INT} ']'  or  NAME ':' DTYPE
    LeafParam parse_leaf_param() {
        LeafParam p;
        p.name = expect_ident("a parameter name").text;
        expect(":", "after parameter name '" + p.name + "'");
        const Token& t = peek();
        if (t.kind != TokenKind::Ident)
            expected("a privilege or scalar type for parameter '" + p.name + "'");
        if (auto scalar = ir::parse_dtype(t.text)) {
            next();
            p.is_tensor = false;
            p.dtype = *scalar;
            return p;
        }
        p.privilege = parse_privilege();
        p.dtype = parse_dtype_name();
        expect("[", "after the dtype of parameter '" + p.name + "'");
        p.shape =
            parse_ints("a dimension (an integer)", "after the dimensions of '" + p.name + "'");
        return p;
    }

    void parse_leaf() {
        const Token& kw = next();
        LeafDef leaf;
        leaf.name = expect_ident("a leaf name after 'leaf'").text;
        if (prog_.find_leaf(leaf.name))
            fail(kw, "duplicate leaf '" + leaf.name + "'");
        expect("(", "after leaf name '" + leaf.name + "'");
        std::map<std::string, bool> scope; // parameter -> is a tensor
        parse_list(")", "after the parameters of leaf '" + leaf.name + "'", [&] {
            const Token& at = peek();
            LeafParam p = parse_leaf_param();
            if (!scope.emplace(p.name, p.is_tensor).second)
                fail(at, "duplicate parameter '" + p.name + "' in leaf '" + leaf.name + "'");
            leaf.params.push_back(std::move(p));
        });
        const Token& open = expect("{", "after the parameters of leaf '" + leaf.name + "'");
        for (skip_separators(); !peek().is("}"); skip_separators()) {
            const Token& t = peek();
            if (at_end())
                expected("'}' to close leaf '" + leaf.name + "' opened at " + ir::where(loc(open)));
            if (t.kind != TokenKind::Ident || !peek(1).is("("))
                expected("a leaf operation");
            if (!ir::find_leaf_op(t.text))
                fail(t, "unknown leaf operation '" + t.text + "'");
            ir::LeafOp op = parse_leaf_op();
            resolve_tensor_names(op.operands, scope);
            leaf.body.push_back(std::move(op));
        }
        next();
        end_statement("leaf '" + leaf.name + "'");
        prog_.leaves.push_back(std::move(leaf));
    }

    // ---- operations ----

    // Ops up to the closing '}' of `open` (or the end of the input at top level); a `yield`
    // must be the last line.
    Block parse_block(const Token* open) {
        Block b;
        auto at_close = [&] { return open ? peek().is("}") : at_end(); };
        for (skip_separators(); !at_close(); skip_separators()) {
            if (at_end())
                expected("'}' to close the body opened at " + ir::where(loc(*open)));
            if (peek().is_ident("yield")) {
                next();
                b.yield = parse_ref();
                end_statement("'yield'");
                skip_separators();
                if (!at_close())
                    expected(open ? "'}' after 'yield' (the last line of a loop body)"
                                  : "end of file after 'yield' (the last line of the body)");
                break;
            }
            b.ops.push_back(parse_op());
        }
        if (open)
            next();
        return b;
    }

    Op parse_op() {
        const Token& t = peek();
        if (t.is_ident("alloc"))
            return parse_alloc();
        if (t.is_ident("part"))
            return parse_part();
        if (t.is("%"))
            return parse_event_op();
        expected("an operation (alloc, part, '%name = ...' or yield)");
    }

    // alloc NAME ':' MEMORY DTYPE shape [over] [param PRIV] [stages S on VAR] [layout L]
    //   [offset N] [mirrors VIEW] [origin A.B]
    Op parse_alloc() {
        Op op;
        op.kind = OpKind::Alloc;
        op.loc = loc(next());
        TensorDecl& t = op.alloc;
        t.name = expect_ident("a tensor name after 'alloc'").text;
        expect(":", "after 'alloc " + t.name + "'");
        t.memory = parse_memory_name();
        t.dtype = parse_dtype_name();
        expect("[", "after the dtype of tensor '" + t.name + "'");
        t.shape =
            parse_ints("a dimension (an integer)", "after the dimensions of '" + t.name + "'");
        if (accept_keyword("over"))
            op.over = parse_over();
        if (accept_keyword("param")) {
            if (peek().kind != TokenKind::Ident || peek().first_on_line)
                expected("a privilege after 'param'");
            t.param = true;
            t.privilege = parse_privilege();
        }
        if (accept_keyword("stages")) {
            t.stages = expect_int("a stage count after 'stages'").int_value;
            expect_keyword("on", "after the stage count");
            t.stage_var = expect_ident("a loop variable after 'on'").text;
        }
        if (accept_keyword("layout"))
            t.layout = parse_layout_name();
        if (accept_keyword("offset"))
            t.offset = expect_int("a byte offset after 'offset'").int_value;
        if (accept_keyword("mirrors"))
            t.mirrors = parse_view("a view after 'mirrors'");
        if (accept_keyword("origin"))
            t.origin = parse_origin();
        finish(op, "alloc '" + t.name + "'");
        scopes_.back()[t.name] = ViewTarget{false, t.shape};
        return op;
    }

    // instance.parameter
    std::string parse_origin() {
        std::string out = expect_ident("an origin (instance.parameter) after 'origin'").text;
        while (accept("."))
            out += "." + expect_ident("a name after '.' in an origin").text;
        return out;
    }

    // part NAME '=' blocks(VIEW, [TILE], pad) | mma(VIEW, ROLE, LEVEL[, N])
    Op parse_part() {
        Op op;
        op.kind = OpKind::Part;
        op.loc = loc(next());
        Partition& p = op.part;
        p.name = expect_ident("a partition name after 'part'").text;
        expect("=", "after 'part " + p.name + "'");
        const Token& fn = peek();
        if (!fn.is_ident("blocks") && !fn.is_ident("mma"))
            expected("'blocks' or 'mma' after 'part " + p.name + " ='");
        next();
        expect("(", "after '" + fn.text + "'");
        const Token& source = peek();
        p.source = parse_view("a tensor or partition piece as the first argument of " + fn.text);
        expect(",", "after the partitioned view");
        if (fn.text == "blocks")
            parse_blocks_spec(p.spec.blocks);
        else
            parse_mma_spec(p.spec);
        auto shape = ir::partition_shape(p.spec, view_shape(p.source, source),
                                         "'" + p.source.name + "'", loc(source));
        if (!shape)
            throw DiagnosticError(shape.errors().front());
        p.shape = *shape;
        finish(op, "part '" + p.name + "'");
        scopes_.back()[p.name] = ViewTarget{true, p.shape.piece};
        return op;
    }

    void parse_blocks_spec(ir::BlocksSpec& b) {
        expect("[", "before tile dimensions");
        parse_list("]", "after tile dimensions", [&] {
            if (accept_keyword("_"))
                b.tile.push_back(std::nullopt);
            else
                b.tile.push_back(expect_int("a tile dimension (an integer or '_')").int_value);
        });
        if (accept(",")) {
            expect_keyword("pad", "after tile dimensions");
            b.remainder = ir::Remainder::Pad;
        }
        expect(")", "after the arguments of blocks");
    }

    void parse_mma_spec(ir::PartitionSpec& s) {
        s.is_mma = true;
        s.mma.role = parse_mma_role_name();
        expect(",", "after the mma role");
        s.mma.level = parse_level_name();
        if (accept(","))
            s.mma.n = expect_int("the instruction N (an integer)").int_value;
        expect(")", "after the arguments of mma");
    }

    // '%' ID '=' (copy | call | join | for | pfor) ...
    Op parse_event_op() {
        Op op;
        op.loc = loc(next());
        op.result = parse_event_id();
        expect("=", "after '%" + op.result + "'");
        const Token& kw = peek();
        if (kw.is_ident("for") || kw.is_ident("pfor"))
            return parse_loop(std::move(op));
        if (kw.is_ident("copy"))
            parse_copy(op);
        else if (kw.is_ident("call"))
            parse_call(op);
        else if (kw.is_ident("join"))
            parse_join(op);
        else
            expected("an operation after '%" + op.result + " =' (copy, call, join, for or pfor)");
        op.level = parse_level_and_over(op);
        parse_role_and_after(op);
        finish(op, "'%" + op.result + " = " + kw.text + "'");
        return op;
    }

    void parse_join(Op& op) {
        next();
        op.kind = OpKind::Join;
    }

    // copy [add|max] VIEW -> VIEW
    void parse_copy(Op& op) {
        next();
        op.kind = OpKind::Copy;
        const Token& mode = peek();
        if ((mode.is_ident("add") || mode.is_ident("max")) && !peek(1).is("->") &&
            !peek(1).is("[")) {
            op.mode = mode.text == "add" ? CopyMode::Add : CopyMode::Max;
            next();
        }
        op.src = parse_view("a source view after 'copy'");
        expect("->", "after the source of the copy");
        op.dst = parse_view("a destination view after '->'");
    }

    // call NAME '(' [arg {',' arg}] ')'
    void parse_call(Op& op) {
        next();
        op.kind = OpKind::Call;
        op.callee = expect_ident("a leaf name after 'call'").text;
        expect("(", "after 'call " + op.callee + "'");
        parse_list(")", "after the arguments of '" + op.callee + "'", [&] {
            const Token& t = peek();
            bool bare = t.kind == TokenKind::Ident && (peek(1).is(",") || peek(1).is(")"));
            if (t.kind == TokenKind::Ident && (peek(1).is("[") || (bare && lookup(t.text))))
                op.args.push_back(parse_view("a view"));
            else
                op.scalars.push_back(parse_expr().e);
        });
    }

    // for VAR in [N] | pfor (VARS) in [N, ...], then the head's attributes and the body.
    Op parse_loop(Op op) {
        const Token& kw = next();
        NestingGuard guard(*this, kw);
        op.kind = kw.text == "pfor" ? OpKind::PFor : OpKind::For;
        Loop& l = op.loop;
        if (op.kind == OpKind::PFor && accept("("))
            parse_list(")", "after loop variables",
                       [&] { l.vars.push_back(expect_ident("a loop variable").text); });
        else
            l.vars.push_back(expect_ident("a loop variable after '" + kw.text + "'").text);
        expect_keyword("in", "after loop variables");
        expect("[", "before loop extents");
        l.extents = parse_ints("a loop extent (an integer)", "after loop extents");
        if (l.vars.empty() || l.extents.size() != l.vars.size())
            fail(kw, kw.text + " '%" + op.result + "' has " + std::to_string(l.vars.size()) +
                         " variable(s) but " + std::to_string(l.extents.size()) + " extent(s)");
        if (accept_keyword("limit")) {
            if (op.kind != OpKind::For || l.vars.size() != 1)
                fail(kw, "'limit' on '%" + op.result + "': only a one-variable for takes one");
            l.limit = parse_expr().e;
        }
        ir::Level level = parse_level_and_over(op);
        if (op.kind == OpKind::PFor) {
            l.level = level;
            op.level = issuers_.back();
        } else {
            op.level = level;
        }
        parse_controls(l.controls);
        parse_role_and_after(op);
        const Token& open = expect("{", "after the head of '%" + op.result + " = " + kw.text + "'");
        op.note = note_of(open);
        scopes_.emplace_back();
        issuers_.push_back(level);
        l.body = parse_block(&open);
        issuers_.pop_back();
        scopes_.pop_back();
        end_statement("the body of '%" + op.result + "'");
        return op;
    }

    void parse_controls(LoopControls& c) {
        c.warpspecialize = accept_keyword("warpspecialize");
        if (accept_keyword("pipeline"))
            c.pipeline = parse_assigned_int("pipeline");
        if (accept_keyword("smem_limit"))
            c.smem_limit = parse_assigned_int("smem_limit");
        c.persistent = accept_keyword("persistent");
        if (accept_keyword("cluster"))
            c.cluster = parse_assigned_int("cluster");
        if (accept_keyword("dma_registers"))
            c.dma_registers = parse_assigned_int("dma_registers");
        if (accept_keyword("compute_registers"))
            c.compute_registers = parse_assigned_int("compute_registers");
    }
};

} // namespace

Result<EventProgram> parse_event_program(std::string_view text, const std::string& filename) {
    auto tokens = ir::lex(text, filename);
    if (!tokens)
        return tokens.errors();
    try {
        return EventParser(std::move(tokens).value(), filename).run();
    } catch (const DiagnosticError& e) {
        return e.diag;
    }
}

Result<EventProgram> parse_event_file(const std::string& path) {
    auto text = ir::read_source(path);
    if (!text)
        return text.errors();
    return parse_event_program(*text, path);
}

} // namespace kiln::event
