// verify_event_program: a valid program passes; each broken rule gives one pinned diagnostic.
#include "event_samples.h"
#include "ir/event_parser.h"
#include "ir/event_verify.h"

#include <gtest/gtest.h>

namespace kiln::event {
namespace {

// Valid: a grid of copy-in / call / copy-out, and a for loop with a loop-carried reference.
const std::string kValid = R"(event_program v

leaf f(C: rw f32[4, 8], s: f32) {
  scale(C, C, s)
}

alloc T : GLOBAL f32[16, 8] param rw
part P = blocks(T, [4, 8])
%e0 = pfor i in [4] @BLOCK {
  alloc S : SHARED f32[4, 8]
  %a = copy P[i, 0] -> S @BLOCK role dma
  %b = call f(S, 2.0) @BLOCK role compute after [cross %a]
  %c = copy S -> P[i, 0] @BLOCK after [%b]
  yield %c
}
%k = for k in [3] @HOST after [%e0[:]] {
  %x = join @HOST after [%y@-1]
  %y = join @HOST after [%x]
  yield %y
}
)";

// kValid with `from` replaced by `to` (which must occur).
std::string with(const std::string& from, const std::string& to) {
    std::string s = kValid;
    auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? s : s.replace(at, from.size(), to);
}

std::vector<std::string> verify_text(const std::string& text) {
    auto p = parse_event_program(text, "v.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    std::vector<std::string> out;
    if (p.ok())
        for (const auto& d : verify_event_program(*p))
            out.push_back(d.str());
    return out;
}

using Messages = std::vector<std::string>;

TEST(EventVerify, ValidProgramsPass) {
    EXPECT_EQ(verify_text(kValid), Messages{});
    EXPECT_EQ(verify_text(testing::kEveryConstruct), Messages{});
}

TEST(EventVerify, EventDefinedTwice) {
    EXPECT_EQ(verify_text(with("%c = copy", "%a = copy")),
              (Messages{"v.ev:13:3: error: copy %a: event %a is already defined by copy %a at "
                        "v.ev:11:3 (each event is defined once)",
                        "v.ev:9:1: error: pfor %e0: its yield reference %c names no event defined "
                        "before it in this or an enclosing body"}));
}

TEST(EventVerify, UndefinedEvent) {
    EXPECT_EQ(verify_text(with("after [%b]", "after [%zz]")),
              Messages{"v.ev:13:3: error: copy %c: reference %zz names no event defined before "
                       "it in this or an enclosing body"});
}

TEST(EventVerify, EventUsedBeforeItsDefinition) {
    EXPECT_EQ(verify_text(with("after [%y@-1]", "after [%y]")),
              Messages{"v.ev:17:3: error: join %x: reference %y names no event defined before it "
                       "in this or an enclosing body"});
}

TEST(EventVerify, EventOfALoopBodyUsedOutsideIt) {
    EXPECT_EQ(verify_text(with("after [%e0[:]]", "after [%c]")),
              Messages{"v.ev:16:1: error: for %k: reference %c names no event defined before it "
                       "in this or an enclosing body"});
}

TEST(EventVerify, LoopCarriedReferenceOutsideAForBody) {
    EXPECT_EQ(verify_text(with("after [%b]", "after [%b@-1]")),
              Messages{"v.ev:13:3: error: copy %c: reference %b@-1 names no event of an "
                       "enclosing for body (a loop-carried reference needs one)"});
}

TEST(EventVerify, ReferenceIndexArity) {
    EXPECT_EQ(verify_text(with("after [%e0[:]]", "after [%e0]")),
              Messages{"v.ev:16:1: error: for %k: reference %e0 has 0 indices but pfor %e0 "
                       "defines an event array of 1 dimension"});
    EXPECT_EQ(verify_text(with("after [%b]", "after [%b[i]]")),
              Messages{"v.ev:13:3: error: copy %c: reference %b[i] has 1 index but call %b "
                       "defines an event array of 0 dimensions"});
}

TEST(EventVerify, ViewOfNoTensorInScope) {
    EXPECT_EQ(verify_text(with("copy P[i, 0] -> S", "copy Q[i, 0] -> S")),
              Messages{"v.ev:11:3: error: copy %a: source Q[i, 0] names no tensor or partition "
                       "in scope"});
}

TEST(EventVerify, ViewIndexArity) {
    EXPECT_EQ(verify_text(with("copy S -> P[i, 0]", "copy S -> P[i]")),
              Messages{"v.ev:13:3: error: copy %c: destination P[i] has 1 index but partition P "
                       "has a 2-d grid"});
    EXPECT_EQ(verify_text(with("call f(S, 2.0)", "call f(S[0], 2.0)")),
              Messages{"v.ev:12:3: error: call %b: argument S[0] indexes tensor S, which is not "
                       "a partition"});
}

TEST(EventVerify, CallOfUnknownLeaf) {
    EXPECT_EQ(verify_text(with("call f(S, 2.0)", "call g(S, 2.0)")),
              Messages{"v.ev:12:3: error: call %b: calls unknown leaf g"});
}

TEST(EventVerify, CallArgumentCounts) {
    EXPECT_EQ(verify_text(with("call f(S, 2.0)", "call f(S)")),
              Messages{"v.ev:12:3: error: call %b: leaf f takes 1 tensor and 1 scalar, found 1 "
                       "view and 0 scalars"});
}

TEST(EventVerify, CallArgumentShape) {
    EXPECT_EQ(verify_text(with("alloc S : SHARED f32[4, 8]", "alloc S : SHARED f32[8, 4]")),
              (Messages{"v.ev:11:3: error: copy %a: source P[i, 0] has shape [4, 8] but "
                        "destination S has shape [8, 4] (a copy's views have the same shape)",
                        "v.ev:12:3: error: call %b: argument S has shape [8, 4] but parameter C "
                        "of leaf f has shape [4, 8]",
                        "v.ev:13:3: error: copy %c: source S has shape [8, 4] but destination "
                        "P[i, 0] has shape [4, 8] (a copy's views have the same shape)"}));
}

TEST(EventVerify, LoopWithoutYield) {
    EXPECT_EQ(verify_text(with("  yield %y\n", "")),
              Messages{"v.ev:16:1: error: for %k: the body defines events but yields none (an "
                       "iteration completes with its yield)"});
}

TEST(EventVerify, CrossOnlyBetweenRoles) {
    EXPECT_EQ(verify_text(with("role dma", "role compute")),
              Messages{"v.ev:12:3: error: call %b: reference cross %a is cross, but copy %a runs "
                       "in role compute and this op in role compute (cross joins a dma and a "
                       "compute operation)"});
    EXPECT_EQ(verify_text(with("after [%b]", "after [cross %b]")),
              Messages{"v.ev:13:3: error: copy %c: reference cross %b is cross, but call %b runs "
                       "in role compute and this op in role any (cross joins a dma and a compute "
                       "operation)"});
}

// IR built in C++ has no source locations; messages still name the op.
TEST(EventVerify, ProgramYieldAndUnlocatedOps) {
    auto p = parse_event_program(kValid, "v.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    p->body.yield = EventRef{"nope", {}, 0, false};
    auto errors = verify_event_program(*p);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].str(), "error: the program's yield reference %nope names no event "
                               "defined before it in this or an enclosing body");
}

TEST(EventVerify, EveryEventOpDefinesAnId) {
    auto p = parse_event_program(kValid, "v.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    p->body.ops[2].loop.body.ops[1].result.clear(); // %a
    p->body.ops[0].result = "T";                    // alloc T
    std::vector<std::string> errors;
    for (const auto& d : verify_event_program(*p))
        errors.push_back(d.str());
    EXPECT_EQ(errors,
              (Messages{"v.ev:7:1: error: alloc T: defines event %T, but an alloc or part "
                        "defines none",
                        "v.ev:11:3: error: copy: defines no event (every copy, call, join and "
                        "loop defines one)",
                        "v.ev:12:3: error: call %b: reference cross %a names no event defined "
                        "before it in this or an enclosing body"}));
}

} // namespace
} // namespace kiln::event
