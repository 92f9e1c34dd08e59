#pragma once
// Errors are values: every user-facing failure is a Diagnostic carrying the source location
// (file:line:col) and a message that names the task, tensor or rule at fault.
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace kiln {

struct Loc {
    std::string file;
    int line = 0; // 1-based; 0 means "no source location" (e.g. IR built through the C++ API)
    int col = 0;
    bool known() const { return line > 0; }
};

struct Diagnostic {
    Loc loc;
    std::string message;
    // "file:line:col: error: message" (or "error: message" without a location).
    std::string str() const;
};

// A Result holds a value or the diagnostics that explain why there is none.
template <class T> class Result {
public:
    Result(T value) : v_(std::move(value)) {}
    Result(Diagnostic d) : v_(std::vector<Diagnostic>{std::move(d)}) {}
    Result(std::vector<Diagnostic> ds) : v_(std::move(ds)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(v_); }
    T& value() & { return std::get<0>(v_); }
    T&& value() && { return std::get<0>(std::move(v_)); }
    const T& operator*() const& { return value(); }
    T& operator*() & { return value(); }
    const T* operator->() const { return &value(); }
    T* operator->() { return &value(); }
    const std::vector<Diagnostic>& errors() const { return std::get<1>(v_); }
    // All diagnostics, one per line.
    std::string error_text() const;

private:
    std::variant<T, std::vector<Diagnostic>> v_;
};

std::string format_diagnostics(const std::vector<Diagnostic>& ds);

template <class T> std::string Result<T>::error_text() const {
    return ok() ? std::string() : format_diagnostics(errors());
}

// Used inside a single pass to unwind to its entry point, where it becomes a Diagnostic value.
// It never crosses a public API boundary.
struct DiagnosticError : std::runtime_error {
    Diagnostic diag;
    explicit DiagnosticError(Diagnostic d) : std::runtime_error(d.message), diag(std::move(d)) {}
};

[[noreturn]] inline void fail_at(const Loc& loc, std::string message) {
    throw DiagnosticError(Diagnostic{loc, std::move(message)});
}

} // namespace kiln
