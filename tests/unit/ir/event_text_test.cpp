// The event IR text form (docs/event_ir.md): the printer's exact output for IR built in C++,
// round trips of hand-written text covering every construct, and pinned syntax errors.
#include "ir/event_parser.h"
#include "ir/event_printer.h"

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

TEST(EventText, PrintsRefsWithIndexDistanceAndCross) {
    EXPECT_EQ(print_ref(ref("e", {name_ref("g"), nullptr}, 2, true)), "cross %e[g, :]@-2");
    EXPECT_EQ(print_ref(ref("acc", {}, 1)), "%acc@-1");
}

// Every construct of the grammar, in canonical form.
const char* kEveryConstruct = R"(event_program every
sizes K = 128, M = 256, N = 128

leaf mma_leaf(C: rw f32[64, 128], A: read bf16[64, 64], B: read bf16[64, 128]) {
  mma(C, A, B)
}

leaf epilogue(D: write bf16[2, 64], C: read f32[2, 64], alpha: f32, rows: i32) {
  scale(D, C, alpha)
  mask(D, rows, 0, 64, 1)
}

alloc D : GLOBAL bf16[256, 128] param write
alloc A : GLOBAL bf16[256, 128] param read layout row_major
alloc B : GLOBAL bf16[128, 128] param read
alloc X : NONE f32[256, 128]  # never materialized
part Dp = blocks(D, [128, 128], pad)
part Ap = blocks(A, [128, 64])
part Bp = blocks(B, [64, _])  # squeezed columns
%e0 = pfor (i, j) in [2, 1] @BLOCK warpspecialize pipeline = 2 smem_limit = 232448 persistent dma_registers = 40 compute_registers = 232 {  # the grid
  alloc Acc : REGISTER f32[128, 128] origin gemm_block.C
  part Accw = mma(Acc, acc, WARPGROUP, 128)
  part Accv = mma(Accw[g, 0], acc, WARP)
  alloc As : SHARED bf16[128, 64] stages 2 on k layout swizzle128 offset 0 mirrors Ap[i, 0] origin gemm_block.A
  alloc Bs : SHARED bf16[64, 128] stages 2 on k layout swizzle128 offset 16384
  %z = call mma_leaf(Accw[g, 0], As, Bs) @WARPGROUP over (g: WARPGROUP 2) role compute
  %e1 = for k in [2] @BLOCK pipeline = 2 after [%z[:]] {
    %a = copy Ap[i, k] -> As @BLOCK role dma after [cross %m[:]@-2]  # copy-in A
    %b = copy Bp[k] -> Bs @BLOCK role dma after [cross %m[:]@-2]
    %m = call mma_leaf(Accw[g, 0], As, Bs) @WARPGROUP over (g: WARPGROUP 2) role compute after [cross %a, cross %b, %m[g]@-1]
    yield %m[:]
  }
  alloc R : REGISTER bf16[2, 64] over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  %c = call epilogue(R, Accv[w], 0.5 * 2, M - i * 128) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e1]
  %o = copy add R -> Dp[i, j] @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%c[g, w, t]]
  %x = copy max X -> X @BLOCK
  %y = copy Dp[i, j] -> X @BLOCK
  %j = join @BLOCK after [%o[:, :, :], %x, %y]
  yield %j
}
%e2 = pfor t in [32] @THREAD after [%e0[:, :]] {
}
%done = join @HOST after [%e0[0, :], %e2[t + 1]]
)";

TEST(EventText, EveryConstructRoundTrips) {
    auto p = parse_event_program(kEveryConstruct, "every.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    std::string printed = print_event_program(*p);
    EXPECT_EQ(printed, kEveryConstruct);
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
    auto p = parse_event_program(kEveryConstruct, "every.ev");
    ASSERT_TRUE(p.ok()) << p.error_text();
    const Block& top = p->body;
    const Op& bp = top.ops[6];
    ASSERT_EQ(bp.kind, OpKind::Part);
    EXPECT_EQ(bp.part.shape.grid, (Shape{2, 128}));
    EXPECT_EQ(bp.part.shape.piece, (Shape{64}));
    EXPECT_EQ(bp.note, "squeezed columns");
    const Op& grid = top.ops[7];
    EXPECT_EQ(grid.kind, OpKind::PFor);
    EXPECT_EQ(grid.level, ir::Level::Host);
    EXPECT_EQ(grid.loop.level, ir::Level::Block);
    EXPECT_EQ(grid.note, "the grid");
    const Op& accv = grid.loop.body.ops[2];
    EXPECT_EQ(accv.part.shape.grid, (Shape{4}));
    EXPECT_EQ(accv.part.shape.piece, (Shape{16, 128}));
    const Op& epilogue = grid.loop.body.ops[8];
    ASSERT_EQ(epilogue.kind, OpKind::Call);
    EXPECT_EQ(epilogue.args.size(), 2u);
    EXPECT_EQ(epilogue.scalars.size(), 2u);
    const Op& kloop = grid.loop.body.ops[6];
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

} // namespace
} // namespace kiln::event
