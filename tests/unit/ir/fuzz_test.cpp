// Mutation fuzzing of the parser: every example, mutated at random (tokens deleted, duplicated,
// swapped, punctuation or keywords inserted, bytes changed, text truncated), must parse to a
// diagnostic with a location or to a program whose print re-parses to the same IR. A crash, a
// hang or an exception is a failure. KILN_FUZZ_CASES sets the number of cases (default 2000),
// KILN_FUZZ_SEED the seed (default 1).
#include "fuzz_mutator.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "program_diff.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace kiln::ir {
namespace {

// Punctuation and keywords of the program language (besides kSharedInserts).
const std::vector<std::string> kProgramInserts = {"+",
                                                  "-",
                                                  "*",
                                                  "/",
                                                  "%",
                                                  "->",
                                                  "#",
                                                  "\"",
                                                  "\n",
                                                  "_",
                                                  "0",
                                                  "-1",
                                                  "1.5e",
                                                  "inf",
                                                  "let",
                                                  "launch",
                                                  "srange",
                                                  "prange",
                                                  "tunable",
                                                  "task",
                                                  "variant",
                                                  "inner",
                                                  "leaf",
                                                  "mapping",
                                                  "instance",
                                                  "entry",
                                                  "tensor",
                                                  "blocks",
                                                  "mma",
                                                  "pad",
                                                  "grid",
                                                  "WARPGROUP",
                                                  "reduce(+)",
                                                  "mem",
                                                  "dispatch",
                                                  "KiB",
                                                  "99999999999999999999",
                                                  "call_external(\"f\")",
                                                  "((((((((((",
                                                  "srange k in [2] {"};

// Either a located diagnostic, or a program that prints to text parsing back to the same IR.
// Returns whether the text parsed.
bool check(const std::string& text, const std::string& name) {
    auto p = parse_program(text, name);
    if (!p.ok()) {
        EXPECT_FALSE(p.errors().empty());
        for (const auto& d : p.errors()) {
            EXPECT_FALSE(d.message.empty());
            EXPECT_TRUE(d.loc.known()) << d.str();
        }
        return false;
    }
    std::string printed = print_program(*p);
    auto again = parse_program(printed, name + " (printed)");
    EXPECT_TRUE(again.ok()) << again.error_text() << "printed:\n" << printed;
    if (!again.ok())
        return true;
    EXPECT_EQ(testing::first_difference(*p, *again), "");
    EXPECT_EQ(print_program(*again), printed);
    return true;
}

TEST(Fuzz, MutatedExamplesNeverCrashTheParser) {
    std::vector<std::string> sources;
    for (const auto& f : testing::example_files())
        sources.push_back(testing::read_text(f));
    ASSERT_FALSE(sources.empty());
    testing::fuzz_parser(sources, kProgramInserts,
                         [](const std::string& text) { return check(text, "fuzz.kiln"); });
}

} // namespace
} // namespace kiln::ir
