#pragma once
// A small integer-program builder over CBC, shared by cost normalization and modulo scheduling.
// Solvers return data: the caller reads variable values and maps them back to its own model.
#include <string>
#include <vector>

namespace kiln::schedule {

struct MipOptions {
    double time_limit_s = 10; // per solve
    int threads = 1;          // 1 keeps results deterministic
};

enum class MipStatus { optimal, infeasible, time_limit };

class Mip {
public:
    // Returns the variable's index.
    int add_var(double lb, double ub, bool integer, double objective);
    void add_row(const std::vector<std::pair<int, double>> &coefs, double lb, double ub);
    // Minimizes the objective. Values are rounded for integer variables.
    MipStatus solve(const MipOptions &opts);
    double value(int var) const { return values_.at(var); }
    double objective() const { return objective_; }

    static constexpr double inf = 1e30;

private:
    struct Var {
        double lb, ub, obj;
        bool integer;
    };
    struct Row {
        std::vector<std::pair<int, double>> coefs;
        double lb, ub;
    };
    std::vector<Var> vars_;
    std::vector<Row> rows_;
    std::vector<double> values_;
    double objective_ = 0;
};

} // namespace kiln::schedule
