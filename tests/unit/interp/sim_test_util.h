#pragma once
// Helpers shared by the event-IR simulator tests: small-integer and poisoned tensors, the exact
// results of the hand-written test programs (column sums, matrix products), the search for a
// schedule that breaks a program, and the check that an example lowered by the pipeline computes
// what the program interpreter computes.
#include "interp/compare.h"
#include "interp/entry.h"
#include "interp/event_sim.h"
#include "interp/interpreter.h"
#include "interp/random.h"
#include "ir/event_parser.h"
#include "ir/parser.h"
#include "passes/pipeline.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

namespace kiln::interp {

using Params = std::map<std::string, std::shared_ptr<HostTensor>>;

// The simulator writes its parameters in place: every run gets its own copies.
inline Params shared_copies(const TensorMap& tensors) {
    Params out;
    for (const auto& [name, t] : tensors)
        out[name] = std::make_shared<HostTensor>(t);
    return out;
}

inline Params shared_copies(const Params& tensors) {
    Params out;
    for (const auto& [name, t] : tensors)
        out[name] = std::make_shared<HostTensor>(*t);
    return out;
}

// Integers in [-3, 3]: every sum the test programs form is exact in f32.
inline std::shared_ptr<HostTensor> integers(ir::DType t, ir::Shape s, uint64_t seed) {
    auto h = std::make_shared<HostTensor>(HostTensor::poison(t, std::move(s)));
    fill_integers(*h, seed, -3, 3);
    return h;
}

inline std::shared_ptr<HostTensor> poison(ir::DType t, ir::Shape s) {
    return std::make_shared<HostTensor>(HostTensor::poison(t, std::move(s)));
}

inline bool equal(const HostTensor& a, const HostTensor& b) {
    return a.shape == b.shape && a.data == b.data; // NaN never compares equal
}

// The sums of the columns of the 2-D tensor `a`.
inline HostTensor column_sums(const HostTensor& a) {
    HostTensor o = HostTensor::filled(ir::DType::F32, {a.shape[1]}, 0.0);
    for (int64_t r = 0; r < a.shape[0]; ++r)
        for (int64_t c = 0; c < a.shape[1]; ++c)
            o.data[c] += a.data[r * a.shape[1] + c];
    return o;
}

// Small integers: every partial sum is exact in f32, so the product is compared exactly.
inline HostTensor matmul(const HostTensor& a, const HostTensor& b) {
    const int64_t m = a.shape[0], k = a.shape[1], n = b.shape[1];
    HostTensor c = HostTensor::filled(ir::DType::F32, {m, n}, 0.0);
    for (int64_t i = 0; i < m; ++i)
        for (int64_t l = 0; l < k; ++l)
            for (int64_t j = 0; j < n; ++j)
                c.data[i * n + j] += a.data[i * k + l] * b.data[l * n + j];
    return c;
}

// The tensors of the vectorized GEMM blocks the simulator tests run (M = 128, N = 256, K = `k`):
// A and B small integers in bf16, C poisoned.
inline Params gemm_inputs(int64_t k) {
    return {{"A", integers(ir::DType::BF16, {128, k}, 7)},
            {"B", integers(ir::DType::BF16, {k, 256}, 8)},
            {"C", poison(ir::DType::F32, {128, 256})}};
}

// Event IR text parsed as "test.ev"; fails the test on a syntax error.
inline event::EventProgram parse(const std::string& text) {
    auto p = event::parse_event_program(text, "test.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : event::EventProgram{};
}

// `text` with `from` (which must occur) replaced by `to`: the program with one edge changed.
inline std::string edit(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from << " in\n" << text;
    if (at != std::string::npos)
        text.replace(at, from.size(), to);
    return text;
}

// `text` without `edge` (which must occur).
inline std::string without(std::string text, const std::string& edge) {
    return edit(std::move(text), edge, "");
}

// A schedule that broke a program: its seed, and its first race (or "wrong result").
struct SimFailure {
    uint64_t seed = 0;
    std::string what;
};

inline std::ostream& operator<<(std::ostream& os, const SimFailure& f) {
    return os << "seed " << f.seed << ": " << f.what;
}

// The first seed below `seeds` whose run of `p` on `inputs` races or leaves `out` different from
// `want`. A simulator error (a deadlock, an unresolvable program) fails the test.
inline std::optional<SimFailure> first_failure(const event::EventProgram& p, const Params& inputs,
                                               const std::string& out, const HostTensor& want,
                                               uint64_t seeds) {
    EventSimulator sim(p);
    for (uint64_t s = 0; s < seeds; ++s) {
        Params run = shared_copies(inputs);
        SimOptions o;
        o.seed = s;
        auto report = sim.run(run, o);
        EXPECT_TRUE(report.ok()) << report.error_text();
        if (!report)
            return SimFailure{s, report.error_text()};
        if (!report->races.empty())
            return SimFailure{s, report->races.front().what};
        if (!equal(*run.at(out), want))
            return SimFailure{s, "wrong result"};
    }
    return std::nullopt;
}

// `file` (relative to the source root), parsed.
inline Result<ir::Program> load_program(const std::string& file) {
    std::ifstream in(std::string(KILN_SOURCE_DIR) + "/" + file);
    std::stringstream text;
    text << in.rdbuf();
    return ir::parse_program(text.str(), file);
}

// "" when one simulated run of `lowered` on `inputs` races nowhere and leaves every tensor of
// `expected` equal to it element for element; else what went wrong.
inline std::string run_mismatch(const event::EventProgram& lowered, const TensorMap& inputs,
                                const TensorMap& expected, const SimOptions& o) {
    Params params = shared_copies(inputs);
    auto report = simulate(lowered, params, o);
    if (!report)
        return report.error_text();
    if (!report->races.empty())
        return "race: " + report->races.front().what;
    for (const auto& [name, want] : expected)
        if (int64_t n = exact_mismatches(*params.at(name), want))
            return name + ": " + std::to_string(n) + " elements differ";
    return "";
}

// "" when `file` (relative to the source root), lowered by the pipeline at `sizes` through pass
// `last_pass` (empty: every pass; each pass's output is verified), computes what the program
// interpreter computes: run s of `seeds`, on the small-integer inputs of seed s under schedule s,
// races nowhere and matches element for element (every sum is exact). Else what went wrong first.
// `reject_none`: the simulator fails any touch of a memory NONE tensor.
inline std::string lowered_mismatch(const std::string& file, const Sizes& sizes,
                                    const std::string& last_pass, uint64_t seeds,
                                    bool reject_none) {
    auto program = load_program(file);
    if (!program)
        return program.error_text();
    passes::CompileOptions options;
    options.sizes = sizes;
    options.stop_after = last_pass;
    auto lowered = passes::compile(*program, options);
    auto resolved = resolve_sizes(*program, sizes);
    if (!lowered || !resolved)
        return lowered.error_text() + resolved.error_text();
    InputOptions small;
    small.fill = InputOptions::Fill::SmallIntegers;
    for (uint64_t seed = 0; seed < seeds; ++seed) {
        auto inputs = make_inputs(*program, *resolved, seed, small);
        if (!inputs)
            return inputs.error_text();
        auto expected = run(*program, *resolved, *inputs);
        if (!expected)
            return expected.error_text();
        SimOptions o;
        o.seed = seed;
        o.reject_none = reject_none;
        if (auto m = run_mismatch(lowered->program, *inputs, *expected, o); !m.empty())
            return "seed " + std::to_string(seed) + ": " + m;
    }
    return "";
}

} // namespace kiln::interp
