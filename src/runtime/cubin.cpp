#include "runtime/cubin.h"

#include <cstdint>
#include <cstring>
#include <string_view>

namespace kiln::runtime {
namespace {

constexpr std::size_t kElf64HeaderBytes = 64, kSectionHeaderBytes = 64;
constexpr unsigned char kOsAbiCuda = 0x41;
constexpr uint32_t kNoBits = 8; // SHT_NOBITS: a section with no bytes in the file

template <class T> T read(const std::vector<char>& b, std::size_t at) {
    T v;
    std::memcpy(&v, b.data() + at, sizeof v);
    return v;
}

Diagnostic bad(const std::string& why) {
    return Diagnostic{{}, "not a cubin: " + why};
}

// e_flags holds the SM in bits 8..15 in the ELF ABI of CUDA 12.8+ (OS ABI 0x41, version >= 8)
// and in bits 0..7 before.
int sm_of(const std::vector<char>& b) {
    const auto flags = read<uint32_t>(b, 48);
    const bool new_abi = static_cast<unsigned char>(b[7]) == kOsAbiCuda && b[8] >= 8;
    return static_cast<int>(new_abi ? (flags >> 8) & 0xff : flags & 0xff);
}

// The token after "-arch " in the toolkit-info note, or "".
std::string arch_in(std::string_view note) {
    auto at = note.find("-arch ");
    if (at == std::string_view::npos)
        return "";
    auto rest = note.substr(at + 6);
    return std::string(rest.substr(0, rest.find_first_of(" \0", 0, 2)));
}

bool table_fits(const std::vector<char>& b, uint64_t offset, uint64_t count, uint64_t entry) {
    return offset <= b.size() && count <= (b.size() - offset) / entry;
}

// The bytes of the section called `name` (an empty view when there is none), after checking
// that the section and program header tables and every section's contents lie in the file.
Result<std::string_view> section(const std::vector<char>& b, std::string_view name) {
    const auto phoff = read<uint64_t>(b, 32), shoff = read<uint64_t>(b, 40);
    const auto phentsize = read<uint16_t>(b, 54), phnum = read<uint16_t>(b, 56);
    const auto shnum = read<uint16_t>(b, 60), shstrndx = read<uint16_t>(b, 62);
    if (!table_fits(b, shoff, shnum, kSectionHeaderBytes) || shstrndx >= shnum)
        return bad("section headers run past the end of the file (truncated?)");
    if (phnum && (phentsize == 0 || !table_fits(b, phoff, phnum, phentsize)))
        return bad("program headers run past the end of the file (truncated?)");
    auto header = [&](std::size_t i) { return shoff + i * kSectionHeaderBytes; };
    for (std::size_t i = 0; i < shnum; ++i) {
        const auto type = read<uint32_t>(b, header(i) + 4);
        const auto at = read<uint64_t>(b, header(i) + 24), size = read<uint64_t>(b, header(i) + 32);
        if (type != kNoBits && !table_fits(b, at, size, 1))
            return bad("section " + std::to_string(i) +
                       " runs past the end of the file (truncated?)");
    }
    auto contents = [&](std::size_t i) {
        if (read<uint32_t>(b, header(i) + 4) == kNoBits)
            return std::string_view();
        return std::string_view(b.data() + read<uint64_t>(b, header(i) + 24),
                                read<uint64_t>(b, header(i) + 32));
    };
    const std::string_view names = contents(shstrndx);
    for (std::size_t i = 0; i < shnum; ++i) {
        const auto name_at = read<uint32_t>(b, header(i));
        if (name_at >= names.size() ||
            names.substr(name_at, names.find('\0', name_at) - name_at) != name)
            continue;
        return contents(i);
    }
    return std::string_view();
}

} // namespace

Result<CubinInfo> inspect_cubin(const std::vector<char>& b) {
    if (b.size() < kElf64HeaderBytes || std::memcmp(b.data(),
                                                    "\x7f"
                                                    "ELF",
                                                    4) != 0)
        return bad("no ELF magic");
    if (b[4] != 2)
        return bad("not a 64-bit ELF");
    const auto machine = read<uint16_t>(b, 18);
    if (machine != kEmCuda)
        return bad("ELF machine " + std::to_string(machine) + ", not EM_CUDA (190)");
    auto note = section(b, ".note.nv.tkinfo");
    if (!note)
        return note.errors();
    return CubinInfo{sm_of(b), arch_in(*note)};
}

} // namespace kiln::runtime
