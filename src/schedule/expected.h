#pragma once
// Errors are values: every fallible entry point of the scheduler returns Expected<T>, which holds
// either the value or one message that names the op, edge, field or constraint family at fault.
#include <string>
#include <utility>
#include <variant>

namespace kiln::schedule {

struct Error {
    std::string message;
};

template <class T> class Expected {
public:
    Expected(T value) : v_(std::move(value)) {}
    Expected(Error e) : v_(std::move(e)) {}

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<0>(v_); }
    T &value() & { return std::get<0>(v_); }
    T &&value() && { return std::get<0>(std::move(v_)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }
    const std::string &error() const { return std::get<1>(v_).message; }

private:
    std::variant<T, Error> v_;
};

} // namespace kiln::schedule
