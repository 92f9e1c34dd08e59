#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the kernel cache's key, so
// two different sources or specs never share an entry by accident.
#include <string>
#include <string_view>

namespace kiln::runtime {

std::string sha256_hex(std::string_view data);

} // namespace kiln::runtime
