// The generated CUDA of the GEMM family: the lines that carry the lowering (register split,
// mbarrier waits per stage, TMA loads, wgmma, predicated stores), and the diagnostics for IR the
// generator cannot lower.
#include "lowered_example.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace kiln::codegen {
namespace {

using testing::emit;
using testing::lower;
using testing::Lowered;


TEST(CudaEmitter, GemmKernelAndLauncher) {
    std::string cuda = emit(lower("gemm"));
    EXPECT_HAS(cuda, "gemm(const __grid_constant__ CUtensorMap tm_C, const __grid_constant__ "
                     "CUtensorMap tm_A, const __grid_constant__ CUtensorMap tm_B)");
    EXPECT_HAS(cuda, "constexpr int kThreads = 384;");
    EXPECT_HAS(cuda, "constexpr int kStages = 4;");
    EXPECT_HAS(cuda, "constexpr int kTiles = 4;");
    EXPECT_HAS(cuda, "extern \"C\" int kiln_launch_gemm(void* C, const void* A, const void* B, "
                     "int M, int N, int K, cudaStream_t stream)");
    EXPECT_HAS(cuda, "if (M != 256 || N != 512 || K != 192) return 1;");
    // Host work per launch stays small: maps are encoded again only for a new address, the
    // shared-memory attribute set once per device.
    EXPECT_HAS(cuda, "static thread_local CUtensorMap tm_A;");
    EXPECT_HAS(cuda, "if (tm_A_of != A) {");
    EXPECT_HAS(cuda, "tm_A_of = A;");
    EXPECT_HAS(cuda, "if (smem_set_on != device) {");
}

TEST(CudaEmitter, GemmRegisterSplitFromTheIr) {
    std::string cuda = emit(lower("gemm"));
    EXPECT_HAS(cuda, "kiln::dev::regs::decrease<40>();  // dma_registers = 40");
    EXPECT_HAS(cuda, "kiln::dev::regs::increase<232>();  // compute_registers = 232");
    EXPECT_HAS(cuda, "float C5[128];  // alloc C5 : REGISTER f32[2, 64] per thread");
}

TEST(CudaEmitter, GemmComputeWarpgroupIndexIsBroadcastSoItStaysUniform) {
    std::string cuda = emit(lower("gemm"));
    EXPECT_HAS(cuda, "= kiln::dev::wgmma::warpgroup_index() - 1;  // WARPGROUP");
}

TEST(CudaEmitter, GemmDmaWarpWaitsForFreeStagesAndIssuesTma) {
    std::string cuda = emit(lower("gemm"));
    EXPECT_HAS(cuda,
               "// %e13 after cross %e27[:, :, :]@-4: every compute warp released this stage");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(&empty[st.stage], st.phase ^ 1u);");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::arrive_expect_tx(&full[st.stage], 49152);");
    EXPECT_HAS(cuda, "kiln::dev::tma::load((A2_smem + st.stage * 16384), &tm_A, &full[st.stage], "
                     "k * 64, i * 128);");
    EXPECT_HAS(cuda, "kiln::dev::tma::load((B2_smem + st.stage * 32768) + p * 8192, &tm_B, "
                     "&full[st.stage], (j * 256) + p * 64, k * 64);");
    EXPECT_HAS(cuda, "const uint32_t box[2] = {64, 128};");
}

TEST(CudaEmitter, GemmComputeWaitsPerStageAndIssuesWgmma) {
    std::string cuda = emit(lower("gemm"));
    EXPECT_HAS(cuda, "// after cross %e13: the TMA completed this stage's bytes");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::wait(&full[st.stage], st.phase);");
    EXPECT_HAS(cuda, "// after %e27[g, w, t]@-1: accumulator chain");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::make_desc<kiln::dev::swizzle::Mode::B128>((A2_smem + "
                     "st.stage * 16384) + (g * 64) * 128, 16, 1024);");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::mma<256, kiln::dev::wgmma::DType::BF16, 0, 1>(C5, "
                     "kiln::dev::wgmma::advance(da0, ks * 32), kiln::dev::wgmma::advance(db0, ks * "
                     "2048), 1);");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::wait<1>();");
    EXPECT_HAS(cuda, "if (held >= 0 && t == 0) kiln::dev::mbarrier::arrive(&empty[held]);");
}

TEST(CudaEmitter, GemmStoreIsPredicatedAndWaitsForTheLoop) {
    std::string cuda = emit(lower("gemm", {{"M", 200}, {"N", 300}, {"K", 100}}));
    EXPECT_HAS(cuda, "kiln::dev::wgmma::wait<0>();");
    EXPECT_HAS(cuda, "kiln::dev::named_barrier::sync(1, 256);");
    EXPECT_HAS(cuda, "const int row0 = i * 128 + g * 64 + kiln::dev::wgmma::accumulator_row("
                     "wg_thread, 0);");
    EXPECT_HAS(cuda, "if (row >= 200) continue;");
    EXPECT_HAS(cuda, "if (col + 1 < 300) *reinterpret_cast<__nv_bfloat162*>(out + col) = "
                     "__floats2bfloat162_rn(v0, v1);");
    EXPECT_HAS(cuda, "else if (col < 300) out[col] = __float2bfloat16_rn(v0);");
    EXPECT_HAS(cuda, "for (int k = 0; k < 2; ++k)");
}

TEST(CudaEmitter, PersistentGridIsRasterizedInGroupsOfRowTiles) {
    std::string cuda = emit(lower("gemm", {{"M", 4096}, {"N", 4096}, {"K", 4096}}));
    EXPECT_HAS(cuda, "const int grid = 512 < sms ? 512 : sms;");
    EXPECT_HAS(cuda, "const int group_first = in_plane / 128 * 8;");
    EXPECT_HAS(cuda, "const int group_rows = min(32 - group_first, 8);");
    EXPECT_HAS(cuda, "const int i = group_first + in_plane % 128 % group_rows;");
    EXPECT_HAS(cuda, "const int j = in_plane % 128 / group_rows;");
}

TEST(CudaEmitter, BatchedGemmAddressesTheBatch) {
    std::string cuda = emit(lower("batched_gemm"));
    EXPECT_HAS(cuda, "const int b = tile / 2 % 3;");
    EXPECT_HAS(cuda, "&tm_A, &full[st.stage], k * 64, i * 128, b);");
    EXPECT_HAS(cuda, "const uint32_t box[3] = {64, 128, 1};");
    EXPECT_HAS(cuda, "const int32_t coords[3] = {col, i * 128 + g * 64, b};");
    Lowered direct = lower("batched_gemm");
    direct.options.tma_store_epilogue = false;
    EXPECT_HAS(emit(direct),
               "auto* out = C + static_cast<size_t>(b) * 65536 + static_cast<size_t>(row) * 256;");
}

TEST(CudaEmitter, DualGemmIssuesBothWgmmasAndTheSwigluEpilogue) {
    std::string cuda = emit(lower("dual_gemm"));
    EXPECT_HAS(cuda, "__device__ __forceinline__ float kiln_swiglu(float gate, float up)");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::mma<128, kiln::dev::wgmma::DType::BF16, 0, 1>(C15, ");
    EXPECT_HAS(cuda, "kiln::dev::wgmma::mma<128, kiln::dev::wgmma::DType::BF16, 0, 1>(C25, ");
    EXPECT_HAS(cuda, "kiln::dev::mbarrier::arrive_expect_tx(&full[st.stage], 49152);");
    EXPECT_HAS(cuda, "const float v0 = kiln_swiglu(C15[reg + 2 * h], C25[reg + 2 * h]), ");
}

TEST(CudaEmitter, GemmRowsumZeroesFirstThenSumsRowsOverTheQuad) {
    Lowered l = lower("gemm_rowsum");
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const std::string& cuda = generated->source;
    EXPECT_HAS(cuda, "gemm_rowsum_pre_e0(float* __restrict__ r) {");
    EXPECT_HAS(cuda, "const int kiln_r0 = kiln_v * 4 % 128;");
    EXPECT_HAS(cuda, "if ((i * 128 + kiln_r0) + 3 < 256 && reinterpret_cast<uintptr_t>(r + kiln_d) "
                     "% 16 == 0) {");
    EXPECT_HAS(cuda, "kiln::dev::vec::store4(r + kiln_d, make_float4(0.0f, 0.0f, 0.0f, 0.0f));");
    EXPECT_HAS(cuda, "if ((i * 128 + kiln_r0) + u < 256) r[kiln_d + u] = 0.0f;");
    // the thread's 32 column pairs of a row in four independent partial sums
    EXPECT_HAS(cuda, "for (int c = 4; c < 32; c += 4) {");
    EXPECT_HAS(cuda, "v3 = (v3 + (C5[4 * (c + 3) + 2 * h] + C5[4 * (c + 3) + 2 * h + 1]));");
    EXPECT_HAS(cuda, "v0 = ((v0 + v1) + (v2 + v3));");
    EXPECT_HAS(cuda,
               "// after %e0[:]: kernel order: that element-wise kernel completed before this one");
    EXPECT_HAS(cuda, "v0 += __shfl_xor_sync(0xffffffffu, v0, 1);");
    EXPECT_HAS(cuda, "v0 += __shfl_xor_sync(0xffffffffu, v0, 2);");
    EXPECT_HAS(cuda, "const int row = i * 128 + g * 64 + "
                     "kiln::dev::wgmma::accumulator_row(wg_thread, 2 * h);");
    EXPECT_HAS(cuda, "if (threadIdx.x % 4 == 0 && row < 256) atomicAdd(r + row, v0);");
    const LaunchSpec& s = generated->spec;
    ASSERT_EQ(s.kernels.size(), 2u);
    EXPECT_EQ(s.kernels[0].symbol, "gemm_rowsum_pre_e0");
    EXPECT_EQ(s.kernels[0].tiles, 2);
    ASSERT_EQ(s.kernels[0].args.size(), 1u);
    EXPECT_EQ(s.params[s.kernels[0].args[0].param].name, "r");
    EXPECT_EQ(s.kernels[1].symbol, "gemm_rowsum");
}

TEST(CudaEmitter, TmaStoreEpilogueStagesThroughSwizzledSharedMemory) {
    Lowered l = lower("gemm", {{"M", 200}, {"N", 296}, {"K", 104}});
    l.options.tma_store_epilogue = true;
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const std::string& cuda = generated->source;
    // C becomes a store tensor map; 4 stages + barriers, then 2 x 16 KiB of staging.
    EXPECT_HAS(cuda, "gemm(const __grid_constant__ CUtensorMap tm_C, const __grid_constant__ "
                     "CUtensorMap tm_A, const __grid_constant__ CUtensorMap tm_B) {");
    EXPECT_HAS(cuda, "constexpr int kStagingOffset = 197632;");
    EXPECT_HAS(cuda, "if (wg_thread == 0) kiln::dev::tma::store_wait_read<0>();");
    EXPECT_HAS(cuda,
               "const uint32_t at = kiln::dev::swizzle::offset<kiln::dev::swizzle::Mode::B128>("
               "srow + 8 * h, (c % 64) * 2);");
    EXPECT_HAS(cuda, "kiln::dev::fence::proxy_async_shared();");
    EXPECT_HAS(cuda, "const int32_t coords[2] = {col, i * 128 + g * 64};");
    EXPECT_HAS(cuda, "kiln::dev::tma::store(&tm_C, staging + p * 8192, coords);");
    const LaunchSpec& s = generated->spec;
    ASSERT_EQ(s.kernels.size(), 1u);
    const SpecArg& c = s.kernels[0].args[0];
    EXPECT_EQ(c.kind, SpecArg::Kind::TensorMap);
    EXPECT_EQ(c.map.box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(c.map.dims, (std::vector<uint64_t>{296, 200}));
    EXPECT_EQ(s.kernels[0].smem_bytes, 197632 + 2 * 16384 + 1024);
}

TEST(CudaEmitter, TmaStoreNeedsSixteenByteRows) {
    // N = 300: a row of C is 600 bytes, not a multiple of 16; the TMA cannot store it, so the
    // epilogue stays direct (predicated pairs) rather than failing.
    Lowered l = lower("gemm", {{"M", 200}, {"N", 300}, {"K", 104}});
    l.options.tma_store_epilogue = true;
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    EXPECT_EQ(generated->source.find("staging_smem"), std::string::npos);
    EXPECT_HAS(generated->source, "__nv_bfloat16* __restrict__ C");
}

// Element-wise kernels after the main one are fine (split-K's conversion), but the main kernel
// cannot wait on one: kernels run in program order.
TEST(CudaEmitter, MainKernelWaitingOnALaterKernelIsRefused) {
    Lowered l = lower("gemm_rowsum");
    auto& ops = l.program.body.ops;
    auto fill = std::find_if(ops.begin(), ops.end(), [](const event::Op& op) {
        return op.kind == event::OpKind::PFor && !op.loop.controls.warpspecialize;
    });
    ASSERT_NE(fill, ops.end());
    event::Op moved = *fill;
    ops.erase(fill);
    ops.push_back(moved);
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("cannot lower copy %e49 (copy-out r for store_thread): "
                                     "reference %e0[:] is to an element-wise kernel launched "
                                     "after this one"),
              std::string::npos)
        << cuda.error_text();
}

TEST(CudaEmitter, UnsupportedLeafStatementNamesTheCall) {
    Lowered l = lower("gemm");
    for (auto& leaf : l.program.leaves)
        if (leaf.name == "store_leaf") {
            leaf.body[0].op = "call_external";
            leaf.body[0].external = "kiln_unknown";
        }
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_EQ(cuda.errors().size(), 1u);
    EXPECT_NE(cuda.error_text().find("codegen: cannot lower call %e39 (store_thread): leaf "
                                     "statement 'call_external(\"kiln_unknown\")' of store_leaf "
                                     "has no per-thread lowering yet"),
              std::string::npos)
        << cuda.error_text();
}

TEST(CudaEmitter, MissingWarEdgeIsAnErrorNotARace) {
    Lowered l = lower("gemm");
    event::walk(l.program.body, [](event::Op& op) {
        if (op.kind == event::OpKind::Copy)
            op.after.clear();
    });
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("cannot lower copy %e13 (copy-in A for gemm_tile): no "
                                     "write-after-read reference guards the stage"),
              std::string::npos)
        << cuda.error_text();
}

TEST(CudaEmitter, KernelWithoutWarpSpecializationIsRefused) {
    Lowered l = lower("gemm");
    for (auto& op : l.program.body.ops)
        if (op.kind == event::OpKind::PFor)
            op.loop.controls.warpspecialize = false;
    auto cuda = emit_cuda(l.program, l.options);
    ASSERT_FALSE(cuda.ok());
    EXPECT_NE(cuda.error_text().find("cannot lower pfor %e0"), std::string::npos)
        << cuda.error_text();
    EXPECT_NE(cuda.error_text().find("the generator emits warp-specialized kernels, and BLOCK "
                                     "pfors of element-wise calls on global tensors; alloc C5"),
              std::string::npos)
        << cuda.error_text();
}

TEST(LaunchSpec, DescribesWhatTheLauncherLaunches) {
    Lowered l = lower("gemm");
    auto generated = emit_cuda(l.program, l.options);
    ASSERT_TRUE(generated.ok()) << generated.error_text();
    const LaunchSpec& s = generated->spec;
    EXPECT_EQ(s.program, "gemm");
    ASSERT_EQ(s.params.size(), 3u);
    EXPECT_EQ(s.params[0].name, "C");
    EXPECT_EQ(s.params[0].privilege, ir::Privilege::Write);
    EXPECT_EQ(s.params[1].shape, (std::vector<int64_t>{256, 192}));
    EXPECT_EQ(s.sizes,
              (std::vector<std::pair<std::string, int64_t>>{{"M", 256}, {"N", 512}, {"K", 192}}));
    ASSERT_EQ(s.kernels.size(), 1u);
    const KernelLaunch& k = s.kernels[0];
    EXPECT_EQ(k.symbol, "gemm");
    EXPECT_EQ(k.tiles, 4);
    EXPECT_TRUE(k.persistent);
    EXPECT_EQ(k.grid(132), 4);
    EXPECT_EQ(k.threads, 384);
    EXPECT_HAS(generated->source, "<<<grid, 384, " + std::to_string(k.smem_bytes) + ", stream>>>");
    ASSERT_EQ(k.args.size(), 3u);
    EXPECT_EQ(k.args[0].kind, SpecArg::Kind::TensorMap); // C: the TMA-store epilogue's map
    EXPECT_EQ(k.args[0].map.box, (std::vector<uint32_t>{64, 64}));
    EXPECT_EQ(k.args[1].kind, SpecArg::Kind::TensorMap);
    EXPECT_EQ(k.args[1].map.dims, (std::vector<uint64_t>{192, 256}));
    EXPECT_EQ(k.args[1].map.strides_bytes, (std::vector<uint64_t>{384}));
    EXPECT_EQ(k.args[1].map.box, (std::vector<uint32_t>{64, 128}));
    EXPECT_HAS(generated->source, "extern \"C\" __global__ void");
    EXPECT_HAS(generated->source, "#if !defined(__CUDACC_RTC__)\n// Builds the TMA tensor maps");
}

TEST(LaunchSpec, JsonRoundTripsForTheGemmFamily) {
    for (const char* example : {"gemm", "batched_gemm", "dual_gemm"}) {
        Lowered l = lower(example);
        auto generated = emit_cuda(l.program, l.options);
        ASSERT_TRUE(generated.ok()) << generated.error_text();
        auto back = launch_spec_from_json(to_json(generated->spec));
        ASSERT_TRUE(back.ok()) << back.error_text();
        EXPECT_EQ(*back, generated->spec) << example;
    }
}

TEST(LaunchSpec, MalformedJsonIsADiagnostic) {
    Lowered l = lower("gemm");
    l.options.tma_store_epilogue = false; // C is then a pointer argument
    std::string good = to_json(emit_cuda(l.program, l.options)->spec);
    auto expect_error = [](const std::string& text, const std::string& message) {
        auto r = launch_spec_from_json(text);
        ASSERT_FALSE(r.ok());
        EXPECT_NE(r.error_text().find(message), std::string::npos) << r.error_text();
    };
    expect_error(good.substr(0, good.size() / 2), "launch spec: malformed JSON");
    expect_error(R"({"program": "g", "params": [], "sizes": [], "kernels": []})",
                 "launch spec: no kernels");
    std::string bad_dtype = good;
    bad_dtype.replace(bad_dtype.find("\"bf16\""), 6, "\"bf17\"");
    expect_error(bad_dtype, "launch spec: unknown dtype 'bf17'");
    std::string bad_arg = good;
    bad_arg.replace(bad_arg.find("\"pointer\": 0"), 12, "\"pointer\": 7");
    expect_error(bad_arg, "launch spec: argument names parameter 7 of 3");
}

} // namespace
} // namespace kiln::codegen
