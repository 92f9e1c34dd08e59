#include "mip.h"

#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <OsiClpSolverInterface.hpp>
#include <cmath>
#include <fmt/format.h>
#include <string>

namespace kiln::schedule {

int Mip::add_var(double lb, double ub, bool integer, double objective) {
    vars_.push_back({lb, ub, objective, integer});
    return static_cast<int>(vars_.size()) - 1;
}

void Mip::add_row(const std::vector<std::pair<int, double>> &coefs, double lb, double ub) {
    rows_.push_back({coefs, lb, ub});
}

namespace {
int no_callback(CbcModel *, int) {
    return 0;
}
} // namespace

MipStatus Mip::solve(const MipOptions &opts) {
    const int n = static_cast<int>(vars_.size());
    CoinPackedMatrix matrix(false, 0, 0);
    matrix.setDimensions(0, n);
    std::vector<double> row_lb, row_ub;
    for (const auto &r : rows_) {
        std::vector<int> idx;
        std::vector<double> val;
        for (auto [i, c] : r.coefs) {
            idx.push_back(i);
            val.push_back(c);
        }
        matrix.appendRow(static_cast<int>(idx.size()), idx.data(), val.data());
        row_lb.push_back(r.lb <= -inf ? -COIN_DBL_MAX : r.lb);
        row_ub.push_back(r.ub >= inf ? COIN_DBL_MAX : r.ub);
    }
    std::vector<double> col_lb, col_ub, obj;
    for (const auto &v : vars_) {
        col_lb.push_back(v.lb);
        col_ub.push_back(v.ub >= inf ? COIN_DBL_MAX : v.ub);
        obj.push_back(v.obj);
    }
    OsiClpSolverInterface solver;
    solver.loadProblem(matrix, col_lb.data(), col_ub.data(), obj.data(), row_lb.data(),
                       row_ub.data());
    for (int i = 0; i < n; ++i)
        if (vars_[i].integer)
            solver.setInteger(i);
    solver.messageHandler()->setLogLevel(0);

    CbcModel model(solver);
    model.setLogLevel(0);
    model.setRandomSeed(1);
    // CbcMain1 applies CBC's default preprocessing, cuts and heuristics, which the bare
    // branchAndBound() call does not: that is what the `cbc` command-line solver does.
    CbcSolverUsefulData data;
    data.noPrinting_ = true;
    CbcMain0(model, data);
    std::string seconds = fmt::format("{}", opts.time_limit_s);
    std::string threads = fmt::format("{}", opts.threads > 1 ? opts.threads : 0);
    const char *argv[] = {"kiln",     "-log",          "0",           "-seconds", seconds.c_str(),
                          "-threads", threads.c_str(), "-randomSeed", "1",        "-solve",
                          "-quit"};
    CbcMain1(static_cast<int>(std::size(argv)), argv, model, no_callback, data);

    const double *best = model.bestSolution();
    if (model.isProvenInfeasible() || (!best && !model.isSecondsLimitReached()))
        return MipStatus::infeasible;
    if (!best)
        return MipStatus::time_limit;
    values_.assign(best, best + n);
    for (int i = 0; i < n; ++i)
        if (vars_[i].integer)
            values_[i] = std::round(values_[i]);
    objective_ = model.getObjValue();
    return model.isProvenOptimal() ? MipStatus::optimal : MipStatus::time_limit;
}

} // namespace kiln::schedule
