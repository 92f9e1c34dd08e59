#include "ir/expr.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace kiln::ir {

ExprPtr int_lit(int64_t v, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Int;
    e->int_value = v;
    e->loc = std::move(loc);
    return e;
}

ExprPtr float_lit(double v, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Float;
    e->float_value = v;
    e->loc = std::move(loc);
    return e;
}

ExprPtr name_ref(std::string name, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Name;
    e->name = std::move(name);
    e->loc = std::move(loc);
    return e;
}

ExprPtr grid_ref(std::string partition, int64_t dim, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Grid;
    e->name = std::move(partition);
    e->int_value = dim;
    e->loc = std::move(loc);
    return e;
}

ExprPtr binary(ExprKind kind, ExprPtr a, ExprPtr b, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = kind;
    e->args = {std::move(a), std::move(b)};
    e->loc = std::move(loc);
    return e;
}

ExprPtr neg(ExprPtr a, Loc loc) {
    auto e = std::make_shared<Expr>();
    e->kind = ExprKind::Neg;
    e->args = {std::move(a)};
    e->loc = std::move(loc);
    return e;
}

bool equal(const Expr& a, const Expr& b) {
    if (a.kind != b.kind || a.int_value != b.int_value || a.name != b.name ||
        a.args.size() != b.args.size())
        return false;
    if (a.kind == ExprKind::Float && !(a.float_value == b.float_value))
        return false;
    for (std::size_t i = 0; i < a.args.size(); ++i)
        if (!equal(*a.args[i], *b.args[i]))
            return false;
    return true;
}

bool equal(const ExprPtr& a, const ExprPtr& b) {
    if (!a || !b)
        return a == b;
    return equal(*a, *b);
}

namespace {

int precedence(ExprKind k) {
    switch (k) {
    case ExprKind::Add:
    case ExprKind::Sub:
        return 1;
    case ExprKind::Mul:
    case ExprKind::Div:
    case ExprKind::Mod:
        return 2;
    case ExprKind::Neg:
        return 3;
    default:
        return 4;
    }
}

std::string format_float(double v) {
    if (std::isinf(v))
        return v > 0 ? "inf" : "-inf";
    // Shortest text that reads back to the same double (std::to_chars guarantees the round
    // trip), always with a '.' or exponent so the parser sees a float.
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".en") == std::string::npos)
        s += ".0";
    return s;
}

void print(const Expr& e, std::string& out);

void print_operand(const Expr& child, int parent_prec, bool right, std::string& out) {
    int p = precedence(child.kind);
    // Left-associative operators: the right operand needs parentheses at equal precedence.
    bool parens = p < parent_prec || (right && p == parent_prec && parent_prec < 3);
    if (parens)
        out += "(";
    print(child, out);
    if (parens)
        out += ")";
}

const char* infix(ExprKind k) {
    switch (k) {
    case ExprKind::Add:
        return " + ";
    case ExprKind::Sub:
        return " - ";
    case ExprKind::Mul:
        return " * ";
    case ExprKind::Div:
        return " / ";
    case ExprKind::Mod:
        return " % ";
    default:
        return nullptr;
    }
}

const char* call_name(ExprKind k) {
    switch (k) {
    case ExprKind::CeilDiv:
        return "ceildiv";
    case ExprKind::Min:
        return "min";
    case ExprKind::Max:
        return "max";
    default:
        return nullptr;
    }
}

void print(const Expr& e, std::string& out) {
    switch (e.kind) {
    case ExprKind::Int:
        out += std::to_string(e.int_value);
        return;
    case ExprKind::Float:
        out += format_float(e.float_value);
        return;
    case ExprKind::Name:
        out += e.name;
        return;
    case ExprKind::Grid:
        out += e.name + ".grid[" + std::to_string(e.int_value) + "]";
        return;
    case ExprKind::Neg:
        out += "-";
        print_operand(*e.args[0], precedence(e.kind), false, out);
        return;
    default:
        break;
    }
    if (const char* op = infix(e.kind)) {
        int p = precedence(e.kind);
        print_operand(*e.args[0], p, false, out);
        out += op;
        print_operand(*e.args[1], p, true, out);
        return;
    }
    out += call_name(e.kind);
    out += "(";
    print(*e.args[0], out);
    out += ", ";
    print(*e.args[1], out);
    out += ")";
}

int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
    return q;
}

int64_t floor_mod(int64_t a, int64_t b) { return a - floor_div(a, b) * b; }

Value eval(const Expr& e, const NameLookup& names, const GridLookup& grids) {
    switch (e.kind) {
    case ExprKind::Int:
        return Value::of_int(e.int_value);
    case ExprKind::Float:
        return Value::of_float(e.float_value);
    case ExprKind::Name: {
        Value v;
        if (!names || !names(e.name, v))
            fail_at(e.loc, "unknown name '" + e.name + "'");
        return v;
    }
    case ExprKind::Grid: {
        int64_t v = 0;
        if (!grids || !grids(e.name, e.int_value, v))
            fail_at(e.loc, "'" + e.name + "' is not a partition with a grid dimension " +
                               std::to_string(e.int_value));
        return Value::of_int(v);
    }
    case ExprKind::Neg: {
        Value a = eval(*e.args[0], names, grids);
        return a.is_int ? Value::of_int(-a.i) : Value::of_float(-a.f);
    }
    default:
        break;
    }
    Value a = eval(*e.args[0], names, grids);
    Value b = eval(*e.args[1], names, grids);
    if (a.is_int && b.is_int) {
        switch (e.kind) {
        case ExprKind::Add:
            return Value::of_int(a.i + b.i);
        case ExprKind::Sub:
            return Value::of_int(a.i - b.i);
        case ExprKind::Mul:
            return Value::of_int(a.i * b.i);
        case ExprKind::Min:
            return Value::of_int(std::min(a.i, b.i));
        case ExprKind::Max:
            return Value::of_int(std::max(a.i, b.i));
        default:
            break;
        }
        if (b.i == 0)
            fail_at(e.loc, "division by zero in '" + to_string(e) + "'");
        switch (e.kind) {
        case ExprKind::Div:
            return Value::of_int(floor_div(a.i, b.i));
        case ExprKind::Mod:
            return Value::of_int(floor_mod(a.i, b.i));
        case ExprKind::CeilDiv:
            return Value::of_int(-floor_div(-a.i, b.i));
        default:
            break;
        }
    }
    double x = a.as_double(), y = b.as_double();
    switch (e.kind) {
    case ExprKind::Add:
        return Value::of_float(x + y);
    case ExprKind::Sub:
        return Value::of_float(x - y);
    case ExprKind::Mul:
        return Value::of_float(x * y);
    case ExprKind::Div:
        return Value::of_float(x / y);
    case ExprKind::Min:
        return Value::of_float(std::min(x, y));
    case ExprKind::Max:
        return Value::of_float(std::max(x, y));
    default:
        fail_at(e.loc, "'" + to_string(e) + "' needs integer operands");
    }
}

} // namespace

std::string to_string(const Expr& e) {
    std::string out;
    print(e, out);
    return out;
}

std::string to_string(const ExprPtr& e) { return e ? to_string(*e) : std::string("<null>"); }

void collect_names(const Expr& e, std::vector<std::string>& out) {
    if (e.kind == ExprKind::Name)
        out.push_back(e.name);
    if (e.kind == ExprKind::Grid)
        out.push_back("." + e.name);
    for (const auto& a : e.args)
        collect_names(*a, out);
}

NameLookup lookup_in(const std::map<std::string, int64_t>& values) {
    return [&values](const std::string& n, Value& out) {
        auto it = values.find(n);
        if (it == values.end())
            return false;
        out = Value::of_int(it->second);
        return true;
    };
}

Result<Value> evaluate(const Expr& e, const NameLookup& names, const GridLookup& grids) {
    try {
        return eval(e, names, grids);
    } catch (const DiagnosticError& err) {
        return err.diag;
    }
}

Result<int64_t> evaluate_int(const Expr& e, const NameLookup& names, const GridLookup& grids) {
    auto v = evaluate(e, names, grids);
    if (!v)
        return v.errors();
    if (!v->is_int)
        return Diagnostic{e.loc, "'" + to_string(e) + "' must be an integer"};
    return v->i;
}

} // namespace kiln::ir
