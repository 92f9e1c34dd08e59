// The analyses the late passes share: happens-before by event reachability
// (src/passes/happens_before.h) and the tensors each operation accesses
// (src/passes/tensor_access.h).
#include "ir/event_parser.h"
#include "passes/happens_before.h"
#include "passes/tensor_access.h"

#include <gtest/gtest.h>

namespace kiln::passes::testing {
namespace {

const char* kProgram = R"(event_program hb
leaf acc(r: rw f32[4], s: read f32[4]) {
  add(r, r, s)
}
alloc G : GLOBAL f32[4, 4] param read
alloc O : GLOBAL f32[4] param write
part Gp = blocks(G, [1, 4])
%e0 = pfor i in [1] @BLOCK {
  alloc R : REGISTER f32[4]
  alloc S : SHARED f32[1, 4]
  part Sp = blocks(S, [1, 4])
  %a = copy Gp[0, 0] -> Sp[0, 0] @BLOCK
  %b = for k in [4] @BLOCK after [%a] {
    %c = copy Gp[k, 0] -> S @BLOCK after [%d@-1]
    %d = call acc(R, Sp[0, 0]) @BLOCK after [%c]
    %x = copy G -> O @BLOCK
    yield %d
  }
  %f = copy add R -> O @BLOCK after [%b]
  yield %f
}
)";

event::EventProgram program() {
    auto p = event::parse_event_program(kProgram, "hb.ev");
    EXPECT_TRUE(p.ok()) << p.error_text();
    return p.ok() ? *p : event::EventProgram{};
}

std::map<std::string, const event::Op*> by_id(const event::EventProgram& p) {
    std::map<std::string, const event::Op*> ops;
    event::walk(p.body, [&](const event::Op& op) {
        if (!op.result.empty())
            ops[op.result] = &op;
    });
    return ops;
}

TEST(HappensBefore, FollowsEventsLoopStartsAndYields) {
    const auto p = program();
    auto op = by_id(p);
    ASSERT_EQ(op.size(), 7u);
    HappensBefore hb(p.body);
    EXPECT_TRUE(hb.before(*op["a"], *op["c"]));  // through the loop's start
    EXPECT_TRUE(hb.before(*op["c"], *op["d"]));  // in one iteration
    EXPECT_FALSE(hb.before(*op["d"], *op["c"])); // only loop-carried (@-1): not followed
    EXPECT_TRUE(hb.before(*op["d"], *op["f"]));  // through the yield and the loop's end
    EXPECT_FALSE(hb.before(*op["x"], *op["f"])); // %x does not reach the yield
    EXPECT_FALSE(hb.before(*op["a"], *op["a"]));
    EXPECT_TRUE(hb.ends_iteration(*op["c"], *op["b"]));
    EXPECT_FALSE(hb.ends_iteration(*op["x"], *op["b"]));
    EXPECT_EQ(hb.common_loop(*op["c"], *op["d"]), op["b"]);
    EXPECT_EQ(hb.common_loop(*op["a"], *op["d"]), op["e0"]);
    EXPECT_EQ(&hb.visible_event(*op["d"], *op["f"]), op["b"]);
    EXPECT_EQ(&hb.visible_event(*op["c"], *op["d"]), op["c"]);
}

TEST(TensorAccess, ResolvesViewsAndPrivileges) {
    const auto p = program();
    auto op = by_id(p);
    ASSERT_EQ(op.size(), 7u);
    TensorAccess access(p);
    EXPECT_EQ(access.tensor_of(event::View{"Sp", {}}), "S");
    const auto& d = access.use(*op["d"]); // acc(R: rw, Sp: read)
    EXPECT_EQ(d.reads, (std::set<std::string>{"R", "S"}));
    EXPECT_EQ(d.writes, (std::set<std::string>{"R"}));
    const auto& f = access.use(*op["f"]); // a reducing copy reads its destination too
    EXPECT_EQ(f.reads, (std::set<std::string>{"O", "R"}));
    EXPECT_EQ(f.writes, (std::set<std::string>{"O"}));
    const auto& loop = access.use(*op["b"]);
    EXPECT_EQ(loop.writes, (std::set<std::string>{"O", "R", "S"}));
    std::vector<std::string> s_users;
    for (const auto* u : access.accesses("S"))
        s_users.push_back(u->result);
    EXPECT_EQ(s_users, (std::vector<std::string>{"a", "c", "d"}));
}

} // namespace
} // namespace kiln::passes::testing
