#pragma once
// The program IR of the Cypress model (paper §3.2): tasks with privilege-annotated signatures,
// inner and leaf variants, tunables, tensors, partitions and launches. Text syntax: docs/LANGUAGE.md.
//
// Trees are built once (by the parser or by include/kiln/builder.h) and then only read; passes
// produce new structures instead of editing these.
#include "ir/expr.h"
#include "ir/types.h"
#include "mapping/mapping.h"

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kiln::ir {

struct Param {
    std::string name;
    bool is_tensor = true;
    Privilege privilege = Privilege::Read; // tensors only
    DType dtype = DType::F32;              // tensors: element type; scalars: i32 or f32
    // Tensors only. Each dimension is an integer literal or a shape symbol: symbols are bound by
    // unification at each launch (so gemm(C[M,N], A[M,K], B[K,N]) checks the K's agree).
    std::vector<ExprPtr> shape;
    Loc loc;
};

struct Task {
    std::string name;
    std::vector<Param> params;
    Loc loc;
    const Param* find_param(const std::string& n) const;
};

// A use of a tensor: a whole tensor (`A`) or one piece of a partition (`Ap[i, 0]`).
struct TensorRef {
    std::string name;
    std::vector<ExprPtr> indices; // empty for a whole tensor
    Loc loc;
};

// An argument of a launch or an operand of a leaf op.
struct Operand {
    std::variant<TensorRef, ExprPtr> value;
    bool is_tensor() const { return value.index() == 0; }
    const TensorRef& tensor() const { return std::get<0>(value); }
    const ExprPtr& scalar() const { return std::get<1>(value); }
};

struct TunableDecl {
    std::vector<std::string> names;
    Loc loc;
};

// let t = tensor f32[M, N]
struct LetTensor {
    std::string name;
    DType dtype = DType::F32;
    std::vector<ExprPtr> shape;
    Loc loc;
};

// let P = blocks(T, [U, _, V], pad): `_` (nullptr here) is a dimension of extent 1 that the
// pieces drop, so a [B, M, K] tensor can be split into [M, K] matrices.
struct LetBlocks {
    std::string name;
    std::string source;
    std::vector<ExprPtr> tile; // nullptr entries are squeezed dimensions
    Remainder remainder = Remainder::Exact;
    Loc loc;
};

// let P = mma(T, acc, WARP) — the wgmma m64nNk16 fragment layouts; `n` (the instruction's N)
// is needed at WARPGROUP level only.
struct LetMma {
    std::string name;
    std::string source;
    MmaRole role = MmaRole::Acc;
    Level level = Level::Warp;
    ExprPtr n; // nullptr unless level == Warpgroup
    Loc loc;
};

// let x = expr (integer or float scalar, inner variants only)
struct LetScalar {
    std::string name;
    ExprPtr value;
    Loc loc;
};

struct Launch {
    std::string label; // optional site name for `dispatch`; empty means "dispatch by task name"
    std::string task;
    std::vector<Operand> args;
    Loc loc;
};

struct Stmt;

// srange / prange over an iteration domain. `grid_of` names a partition whose grid is the
// domain (`prange (i, j) in Cp.grid`); otherwise `extents` lists one extent per variable.
// `limit` (a one-variable srange only) stops the loop early: it runs min(extent, limit)
// iterations. The extent stays static (stages, buffers and schedules are planned for it); the
// limit may read scalar parameters, so it can differ between instances, e.g. causal attention's
// key tiles up to the diagonal: `srange k in [Kp.grid[0]] limit ceildiv(row0 + M, BN)`.
struct Loop {
    bool parallel = false;
    std::vector<std::string> vars;
    std::string grid_of;
    std::vector<ExprPtr> extents;
    ExprPtr limit;
    std::vector<Stmt> body;
    Loc loc;
};

// A builtin leaf operation or call_external (then `external` holds the function name).
struct LeafOp {
    std::string op;
    std::string external;
    std::vector<Operand> operands;
    Loc loc;
};

struct Stmt {
    std::variant<TunableDecl, LetTensor, LetBlocks, LetMma, LetScalar, Launch, Loop, LeafOp> node;
    const Loc& loc() const;
};

struct Variant {
    std::string name;
    std::string task;
    bool is_leaf = false;
    std::vector<Stmt> body;
    Loc loc;
    // Tunables the variant declares, in declaration order.
    std::vector<std::string> tunables() const;
};

struct SizeBinding {
    std::string name;
    int64_t value = 0;
    Loc loc;
};

// reference gemm(C, A, B, causal = 1): names a builtin float64 reference computation (see
// src/interp/reference.h) over the entry task's parameters.
struct ReferenceArg {
    std::string name;
    std::optional<double> value; // set for `key = value` attributes
};

struct Reference {
    std::string name;
    std::vector<ReferenceArg> args;
    Loc loc;
};

struct Program {
    std::string name;
    std::vector<SizeBinding> sizes;
    std::optional<Reference> reference;
    std::vector<Task> tasks;
    std::vector<Variant> variants;
    mapping::Mapping mapping;
    Loc loc;

    const Task* find_task(const std::string& n) const;
    const Variant* find_variant(const std::string& n) const;
};

} // namespace kiln::ir
