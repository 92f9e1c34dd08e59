// The event IR text form (docs/event_ir.md): the printer's exact output for IR built in C++,
// round trips of hand-written text covering every construct, and pinned syntax errors.
#include "event_samples.h"
#include "fuzz_mutator.h"
#include "ir/event_parser.h"
#include "ir/event_printer.h"
#include "ir/event_verify.h"

#include <gtest/gtest.h>

namespace kiln::event {
namespace {

using ir::int_lit;
using ir::name_ref;

EventRef ref(std::string id, std::vector<ir::ExprPtr> index = {}, int64_t distance = 0,
             bool cross = false) {
    return EventRef{std::move(id), std::move(index), distance, cross};
}

Op alloc_op(std::string name, ir::Memory mem, ir::DType dtype, Shape shape) {
    Op op;
    op.kind = OpKind::Alloc;
    op.alloc.name = std::move(name);
    op.alloc.memory = mem;
    op.alloc.dtype = dtype;
    op.alloc.shape = std::move(shape);
    return op;
}

Op copy_op(std::string id, View src, View dst, ir::Level level, std::vector<EventRef> after) {
    Op op;
    op.kind = OpKind::Copy;
    op.result = std::move(id);
    op.src = std::move(src);
    op.dst = std::move(dst);
    op.level = level;
    op.after = std::move(after);
    return op;
}

// A small GEMM-like program using most constructs of the text form.
EventProgram sample() {
    EventProgram p;
    p.name = "gemm";
    p.sizes = {{"M", 256}, {"K", 64}};
    LeafDef leaf;
    leaf.name = "scale_leaf";
    leaf.params = {{"C", true, ir::Privilege::ReadWrite, ir::DType::F32, {64, 64}},
                   {"s", false, ir::Privilege::Read, ir::DType::F32, {}}};
    leaf.body.push_back(
        ir::LeafOp{"scale",
                   "",
                   {ir::Operand{ir::TensorRef{"C", {}, {}}},
                    ir::Operand{ir::TensorRef{"C", {}, {}}}, ir::Operand{name_ref("s")}},
                   {}});
    p.leaves.push_back(leaf);

    Op c = alloc_op("C", ir::Memory::Global, ir::DType::F32, {256, 64});
    c.alloc.param = true;
    c.alloc.privilege = ir::Privilege::ReadWrite;
    p.body.ops.push_back(c);
    Op cp;
    cp.kind = OpKind::Part;
    cp.part.name = "Cp";
    cp.part.source = View{"C", {}};
    cp.part.spec.blocks.tile = {64, std::nullopt};
    cp.part.spec.blocks.remainder = ir::Remainder::Pad;
    cp.note = "tiles of C";
    p.body.ops.push_back(cp);

    Op loop;
    loop.kind = OpKind::PFor;
    loop.result = "e0";
    loop.level = ir::Level::Host;
    loop.loop.vars = {"i"};
    loop.loop.extents = {4};
    loop.loop.level = ir::Level::Block;
    loop.loop.controls.warpspecialize = true;
    loop.loop.controls.pipeline = 2;
    loop.note = "the grid";
    Op s = alloc_op("S", ir::Memory::Shared, ir::DType::F32, {64, 64});
    s.alloc.stages = 2;
    s.alloc.stage_var = "k";
    s.alloc.layout = mapping::Layout::Swizzle128;
    s.alloc.offset = 0;
    s.alloc.mirrors = View{"Cp", {name_ref("i"), int_lit(0)}};
    s.alloc.origin = "tile.C";
    loop.loop.body.ops.push_back(s);
    Op in =
        copy_op("e1", View{"Cp", {name_ref("i"), int_lit(0)}}, View{"S", {}}, ir::Level::Block, {});
    in.role = Role::Dma;
    in.note = "copy-in C";
    loop.loop.body.ops.push_back(in);
    Op call;
    call.kind = OpKind::Call;
    call.result = "e2";
    call.callee = "scale_leaf";
    call.args = {View{"S", {}}};
    call.scalars = {ir::float_lit(0.5)};
    call.level = ir::Level::Thread;
    call.over = {{"w", ir::Level::Warp, 4}, {"t", ir::Level::Thread, 32}};
    call.role = Role::Compute;
    call.after = {ref("e1", {}, 0, true)};
    loop.loop.body.ops.push_back(call);
    Op out = copy_op("e3", View{"S", {}}, View{"Cp", {name_ref("i"), int_lit(0)}}, ir::Level::Block,
                     {ref("e2", {nullptr, nullptr})});
    out.mode = CopyMode::Add;
    loop.loop.body.ops.push_back(out);
    loop.loop.body.yield = ref("e3");
    p.body.ops.push_back(loop);

    Op j;
    j.kind = OpKind::Join;
    j.result = "e4";
    j.level = ir::Level::Host;
    j.after = {ref("e0", {nullptr})};
    p.body.ops.push_back(j);
    return p;
}

const char* kSampleText = R"(event_program gemm
sizes K = 64, M = 256

leaf scale_leaf(C: rw f32[64, 64], s: f32) {
  scale(C, C, s)
}

alloc C : GLOBAL f32[256, 64] param rw
part Cp = blocks(C, [64, _], pad)  # tiles of C
%e0 = pfor i in [4] @BLOCK warpspecialize pipeline = 2 {  # the grid
  alloc S : SHARED f32[64, 64] stages 2 on k layout swizzle128 offset 0 mirrors Cp[i, 0] origin tile.C
  %e1 = copy Cp[i, 0] -> S @BLOCK role dma  # copy-in C
  %e2 = call scale_leaf(S, 0.5) @THREAD over (w: WARP 4, t: THREAD 32) role compute after [cross %e1]
  %e3 = copy add S -> Cp[i, 0] @BLOCK after [%e2[:, :]]
  yield %e3
}
%e4 = join @HOST after [%e0[:]]
)";

TEST(EventText, PrintsTheDocumentedForm) {
    EXPECT_EQ(print_event_program(sample()), kSampleText);
}

TEST(EventText, NotesPrintAsOneTrimmedComment) {
    EventProgram p;
    p.name = "n";
    Op t = alloc_op("T", ir::Memory::Global, ir::DType::F32, {4});
    t.note = "  two\nlines \t";
    p.body.ops.push_back(t);
    std::string printed = print_event_program(p);
    EXPECT_EQ(printed, "event_program n\n\nalloc T : GLOBAL f32[4]  # two lines\n");
    auto again = parse_event_program(printed, "n.ev");
    ASSERT_TRUE(again.ok()) << again.error_text();
    EXPECT_EQ(again->body.ops[0].note, "two lines");
}

TEST(EventText, PrintsRefsWithIndexDistanceAndCross) {
    EXPECT_EQ(print_ref(ref("e", {name_ref("g"), nullptr}, 2, true)), "cross %e[g, :]@-2");
    EXPECT_EQ(print_ref(ref("acc", {}, 1)), "%acc@-1");
}

TEST(EventText, EveryConstructRoundTrips) {
    auto p = parse_event_program(testing::kEveryConstruct, "every.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    std::string printed = print_event_program(*p);
    EXPECT_EQ(printed, testing::kEveryConstruct);
    auto again = parse_event_program(printed, "every.ev");
    ASSERT_TRUE(again.ok()) << again.error_text();
    EXPECT_EQ(print_event_program(*again), printed);
}

TEST(EventText, PrintedSampleRoundTrips) {
    std::string printed = print_event_program(sample());
    auto p = parse_event_program(printed, "sample.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    EXPECT_EQ(print_event_program(*p), printed);
}

// What the text does not spell out is recomputed: partition shapes, a pfor's issuing level,
// call argument kinds, notes.
TEST(EventText, ParserRecomputesWhatTheTextLeavesOut) {
    auto p = parse_event_program(testing::kEveryConstruct, "every.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    const Block& top = p->body;
    const Op& bc = top.ops[7];
    ASSERT_EQ(bc.kind, OpKind::Part);
    EXPECT_EQ(bc.part.shape.grid, (Shape{2, 128}));
    EXPECT_EQ(bc.part.shape.piece, (Shape{64}));
    EXPECT_EQ(bc.note, "squeezed columns");
    const Op& grid = top.ops[8];
    EXPECT_EQ(grid.kind, OpKind::PFor);
    EXPECT_EQ(grid.level, ir::Level::Host);
    EXPECT_EQ(grid.loop.level, ir::Level::Block);
    EXPECT_EQ(grid.note, "the grid");
    const Op& acct = grid.loop.body.ops[3];
    EXPECT_EQ(acct.part.shape.grid, (Shape{32}));
    EXPECT_EQ(acct.part.shape.piece, (Shape{2, 32}));
    const Op& epilogue = grid.loop.body.ops[11];
    ASSERT_EQ(epilogue.kind, OpKind::Call);
    EXPECT_EQ(epilogue.args.size(), 2u);
    EXPECT_EQ(epilogue.scalars.size(), 2u);
    const Op& kloop = grid.loop.body.ops[8];
    ASSERT_EQ(kloop.kind, OpKind::For);
    const EventRef& war = kloop.loop.body.ops[0].after[0];
    EXPECT_TRUE(war.cross);
    EXPECT_EQ(war.distance, 2);
    ASSERT_EQ(war.index.size(), 1u);
    EXPECT_EQ(war.index[0], nullptr);
    EXPECT_EQ(kloop.loop.body.ops[0].note, "copy-in A");
    const ir::LeafOp& mask = p->leaves[1].body[1];
    EXPECT_TRUE(mask.operands[0].is_tensor());
    EXPECT_FALSE(mask.operands[1].is_tensor());
}

// Comments on their own line and blank lines are not part of the IR; ';' separates ops.
TEST(EventText, NonCanonicalInputPrintsCanonically) {
    const char* input = R"(# a comment
event_program p
alloc T : GLOBAL f32[4]   #   spaced note   
# another comment
%a = copy T -> T @HOST;  %b = join @HOST after [ % a , %a@-0x ]
)";
    auto p = parse_event_program(input, "p.ev");
    EXPECT_FALSE(p.ok());
    const char* fine = R"(# a comment
event_program p

alloc T : GLOBAL f32[4]   #   spaced note
# another comment
%a = copy T -> T @HOST;  %b = join @HOST after [ % a , %a ]
)";
    auto q = parse_event_program(fine, "p.ev");
    ASSERT_TRUE(q.ok()) << q.error_text();
    EXPECT_EQ(print_event_program(*q), "event_program p\n\nalloc T : GLOBAL f32[4]  # spaced note\n"
                                       "%a = copy T -> T @HOST\n%b = join @HOST after [%a, %a]\n");
}

// Malformed input gives exactly one diagnostic whose full text (file:line:col and message) is
// pinned here.
struct BadInput {
    const char* name;
    std::string text;
    std::string error;
};

const std::string kHead = "event_program p\n";

std::vector<BadInput> bad_inputs() {
    return {
        {"missing_header", "program p\n",
         "bad.ev:1:1: error: expected 'event_program' at the start of an event program, found "
         "'program'"},
        {"missing_program_name", "event_program\n",
         "bad.ev:2:1: error: expected a program name after 'event_program', found end of file"},
        {"size_without_equals", kHead + "sizes K 3\n",
         "bad.ev:2:9: error: expected '=' after size symbol 'K', found '3'"},
        {"stages_without_var", kHead + "alloc T : GLOBAL f32[4] stages 2\n",
         "bad.ev:3:1: error: expected 'on' after the stage count, found end of file"},
        {"unknown_memory", kHead + "alloc T : L2 f32[4]\n",
         "bad.ev:2:11: error: unknown memory 'L2' (expected one of GLOBAL, SHARED, REGISTER, "
         "NONE)"},
        {"unknown_layout", kHead + "alloc T : GLOBAL f32[4] layout swizzle256\n",
         "bad.ev:2:32: error: unknown layout 'swizzle256' (expected one of row_major, col_major, "
         "swizzle32, swizzle64, swizzle128)"},
        {"partition_of_unknown", kHead + "alloc T : GLOBAL f32[4]\npart P = blocks(U, [2])\n",
         "bad.ev:3:17: error: unknown tensor or partition 'U'"},
        {"tile_does_not_divide", kHead + "alloc T : GLOBAL f32[4]\npart P = blocks(T, [3])\n",
         "bad.ev:3:17: error: blocks partition of 'T' (shape [4]) by tile 3 does not divide "
         "dimension 0 (4 % 3 = 1); declare a remainder policy: blocks(..., pad)"},
        {"partition_of_whole_partition",
         kHead + "alloc T : GLOBAL f32[4]\npart P = blocks(T, [2])\npart Q = blocks(P, [1])\n",
         "bad.ev:4:17: error: partition 'P' needs an index to name the piece to partition"},
        {"unknown_partition_operator", kHead + "alloc T : GLOBAL f32[4]\npart P = tiles(T, [2])\n",
         "bad.ev:3:10: error: expected 'blocks' or 'mma' after 'part P =', found 'tiles'"},
        {"mma_needs_matrix",
         kHead + "alloc T : GLOBAL f32[4]\npart P = mma(T, acc, WARPGROUP, 64)\n",
         "bad.ev:3:14: error: mma partition (acc, WARPGROUP) of 'T' with shape [4]: needs a 2-d "
         "tensor"},
        {"copy_without_arrow", kHead + "%e = copy T U @HOST\n",
         "bad.ev:2:13: error: expected '->' after the source of the copy, found 'U'"},
        {"copy_without_destination", kHead + "%e = copy T -> @HOST\n",
         "bad.ev:2:16: error: expected a destination view after '->', found '@'"},
        {"unknown_operation", kHead + "%e = move T -> U @HOST\n",
         "bad.ev:2:6: error: expected an operation after '%e =' (copy, call, join, for or pfor), "
         "found 'move'"},
        {"missing_level", kHead + "%e = copy T -> U\n",
         "bad.ev:3:1: error: expected '@' before the processor level of '%e', found end of file"},
        {"unknown_level", kHead + "%e = join @CLUSTER\n",
         "bad.ev:2:12: error: unknown processor level 'CLUSTER' (expected one of HOST, BLOCK, "
         "WARPGROUP, WARP, THREAD)"},
        {"unknown_role", kHead + "%e = copy T -> U @HOST role dmaa\n",
         "bad.ev:2:29: error: unknown role 'dmaa' (expected one of any, dma, compute)"},
        {"ref_without_percent", kHead + "%e = join @HOST after [e1]\n",
         "bad.ev:2:24: error: expected an event reference ('%name'), found 'e1'"},
        {"zero_distance", kHead + "%e = join @HOST after [%a@-0]\n",
         "bad.ev:2:28: error: the loop distance of '%a' must be positive"},
        {"empty_ref_index", kHead + "%e = join @HOST after [%a[:, ]\n",
         "bad.ev:2:30: error: expected an expression, found ']'"},
        {"pfor_arity", kHead + "%e = pfor (i, j) in [2] @BLOCK {\n}\n",
         "bad.ev:2:6: error: pfor '%e' has 2 variable(s) but 1 extent(s)"},
        {"limit_on_a_pfor", kHead + "%e = pfor i in [2] limit 1 @BLOCK {\n}\n",
         "bad.ev:2:6: error: 'limit' on '%e': only a one-variable for takes one"},
        {"op_after_yield",
         kHead + "%e = for k in [2] @BLOCK {\n  yield %a\n  %b = join @BLOCK\n}\n",
         "bad.ev:4:3: error: expected '}' after 'yield' (the last line of a loop body), found "
         "'%'"},
        {"unclosed_body", kHead + "%e = for k in [2] @BLOCK {\n  %b = join @BLOCK\n",
         "bad.ev:4:1: error: expected '}' to close the body opened at bad.ev:2:26, found end of "
         "file"},
        {"over_without_extent", kHead + "%e = join @HOST over (g: WARP)\n",
         "bad.ev:2:30: error: expected the extent of processor variable 'g', found ')'"},
        {"controls_on_a_join", kHead + "%e = join @HOST warpspecialize\n",
         "bad.ev:2:17: error: expected newline or ';' after '%e = join', found 'warpspecialize'"},
        {"unknown_leaf_op", kHead + "leaf f(C: rw f32[4]) {\n  frob(C)\n}\n",
         "bad.ev:3:3: error: unknown leaf operation 'frob'"},
        {"duplicate_leaf_param", kHead + "leaf f(C: rw f32[4], C: f32) {\n}\n",
         "bad.ev:2:22: error: duplicate parameter 'C' in leaf 'f'"},
        {"leaf_after_ops", kHead + "%e = join @HOST\nleaf f() {\n}\n",
         "bad.ev:3:1: error: expected an operation (alloc, part, '%name = ...' or yield), found "
         "'leaf'"},
        {"deep_nesting", kHead + "%e = copy T[" + std::string(300, '(') + " -> T @HOST\n",
         "bad.ev:2:212: error: nesting too deep (more than 200 levels)"},
        {"bad_character", kHead + "%e = copy T -> T @HOST $\n",
         "bad.ev:2:24: error: unexpected character '$'"},
    };
}

TEST(EventText, MalformedInputGivesOnePinnedDiagnostic) {
    for (const auto& c : bad_inputs()) {
        SCOPED_TRACE(c.name);
        auto p = parse_event_program(c.text, "bad.ev");
        ASSERT_FALSE(p.ok());
        ASSERT_EQ(p.errors().size(), 1u);
        EXPECT_EQ(p.errors()[0].str(), c.error);
    }
}

TEST(EventText, UnreadableFileIsADiagnostic) {
    auto p = parse_event_file("/nonexistent/x.ev");
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.errors()[0].str(), "error: cannot read file '/nonexistent/x.ev'");
}

// Mutation fuzzing (KILN_FUZZ_CASES, KILN_FUZZ_SEED as for the program parser): every mutated
// text gives a located diagnostic, or a program that verifies without crashing and whose print
// parses back and prints the same.
const std::vector<std::string> kEventInserts = {"@-",
                                                "@-0",
                                                "-",
                                                "*",
                                                "%",
                                                "%e",
                                                "->",
                                                "#",
                                                "\n",
                                                "_",
                                                "0",
                                                "-1",
                                                "1.5",
                                                "inf",
                                                "alloc",
                                                "part",
                                                "copy",
                                                "call",
                                                "join",
                                                "for",
                                                "pfor",
                                                "yield",
                                                "over",
                                                "after",
                                                "cross",
                                                "role",
                                                "dma",
                                                "leaf",
                                                "param",
                                                "stages",
                                                "on",
                                                "mma",
                                                "blocks",
                                                "pad",
                                                "mirrors",
                                                "origin",
                                                "WARP",
                                                "THREAD",
                                                "warpspecialize",
                                                "pipeline = 2",
                                                "99999999999999999999",
                                                "((((((((((",
                                                "%f = for k in [2] @BLOCK {"};

// Returns whether the text parsed.
bool check_event_text(const std::string& text) {
    auto p = parse_event_program(text, "fuzz.ev");
    if (!p.ok()) {
        EXPECT_EQ(p.errors().size(), 1u);
        EXPECT_TRUE(p.errors()[0].loc.known()) << p.errors()[0].str();
        EXPECT_FALSE(p.errors()[0].message.empty());
        return false;
    }
    verify_event_program(*p); // any parsed program can be verified without crashing
    std::string printed = print_event_program(*p);
    auto again = parse_event_program(printed, "fuzz.ev (printed)");
    EXPECT_TRUE(again.ok()) << again.error_text() << "printed:\n" << printed;
    if (again.ok()) {
        EXPECT_EQ(print_event_program(*again), printed);
    }
    return true;
}

TEST(Fuzz, EventText) {
    ir::testing::fuzz_parser({testing::kEveryConstruct, print_event_program(sample())},
                             kEventInserts, check_event_text);
}

} // namespace
} // namespace kiln::event
