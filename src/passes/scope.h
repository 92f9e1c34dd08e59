#pragma once
// The names visible in a variant body and what each one is, for the size-independent checks of
// verify(): shape symbols and parameters of the task, tunables, lets, partitions, loop variables.
//
// Scoping: a loop body opens a scope that closes with the loop. Names declared with `let` (and
// tunables) must be unique in the whole variant, even across sibling loop bodies, so the task
// tree can list a node's tensors and partitions by name; loop variables may be reused by loops
// that do not nest.
#include "ir/program.h"
#include "passes/diagnostics.h"

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace kiln::passes {

enum class NameKind {
    SizeSymbol,
    ScalarParam,
    TensorParam,
    Tunable,
    ScalarLet,
    Tensor, // created with `let t = tensor ...`
    Partition,
    LoopVar,
};

bool is_scalar(NameKind k);
std::string_view kind_text(NameKind k); // "a tensor parameter", "a partition", ...

struct Declared {
    NameKind kind = NameKind::ScalarLet;
    Loc loc;
    ir::DType dtype = ir::DType::F32; // tensors: element type (partitions: the source's)
    std::size_t rank = 0;             // tensors: rank; partitions: rank of one piece
    std::size_t grid_rank = 0;        // partitions
    std::string source;               // partitions: the partitioned tensor
    const ir::Param *param = nullptr; // parameters

    static Declared of(NameKind kind, const Loc &loc, ir::DType dtype = ir::DType::F32,
                       std::size_t rank = 0);
};

class Scope {
public:
    // Starts with the task's shape symbols and parameters.
    explicit Scope(const ir::Task &task);

    // Declares `name`; returns the declaration it clashes with (nullptr when it does not).
    const Declared *declare(const std::string &name, const Declared &d);
    const Declared *find(const std::string &name) const;
    bool names_tensor(const std::string &name) const;

    void open();
    void close();

private:
    std::vector<std::map<std::string, Declared>> frames_;
    std::map<std::string, Declared> unique_; // every non-loop name ever declared
};

// Reports each name in `e` that is not a visible scalar and each `P.grid[d]` whose P is not a
// partition with a d-th grid dimension. `where` names the variant ("variant gemm_rows").
void check_expr(const ir::Expr &e, const Scope &scope, const std::string &where, Diagnostics &d);

// The shape symbols of a task: every name in its tensor parameters' shapes, in first-use order.
std::vector<std::string> shape_symbols(const ir::Task &task);

// What `let P = blocks(...)` / `let P = mma(...)` declares, given the partitioned tensor.
Declared partition_decl(const ir::LetBlocks &let, const Declared &source);
Declared partition_decl(const ir::LetMma &let, const Declared &source);

} // namespace kiln::passes
