// The event IR text form (docs/event_ir.md): the printer's exact output for IR built in C++.
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
%e0 = pfor i in [4] @HOST warpspecialize pipeline = 2 {  # the grid
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

} // namespace
} // namespace kiln::event
