// The event-IR simulator (src/interp/event_sim.h): correct programs (a copy chain through the
// memories, a broadcast join, a pipelined staged loop, a vectorized GEMM calling mma leaves,
// reductions, aliased shared memory, a masked mirror) give the right result and no race under
// hundreds of seeds; the same programs with one `after` edge (or a stage) deleted are caught —
// a race, or a wrong result — for some seed, and the first one found is printed; sequential
// mode and the diagnostics (deadlock, NONE tensors, unresolvable refs and views) are pinned.
#include "sim_test_util.h"

#include <gtest/gtest.h>

#include <cmath>
#include <ctime>
#include <iostream>

namespace kiln::interp {
namespace {

struct Outcome {
    SimReport report;
    Params params;
};

Outcome simulate_on(EventSimulator& sim, const Params& inputs, SimOptions o) {
    Outcome r{{}, shared_copies(inputs)};
    auto rep = sim.run(r.params, o);
    EXPECT_TRUE(rep.ok()) << rep.error_text();
    if (rep.ok())
        r.report = *rep;
    return r;
}

SimOptions seeded(uint64_t seed) {
    SimOptions o;
    o.seed = seed;
    return o;
}

// global -> shared (block) -> registers (one row per thread) -> global.
const std::string kChain = R"(event_program chain
alloc A : GLOBAL f32[64, 32] param read
alloc B : GLOBAL f32[64, 32] param write
part Ap = blocks(A, [32, 32])
part Bp = blocks(B, [32, 32])
%e0 = pfor i in [2] @BLOCK {
  alloc S : SHARED f32[32, 32]
  alloc R : REGISTER f32[32] over (t: THREAD 32)
  part Sr = blocks(S, [_, 32])
  part Br = blocks(Bp[i, 0], [_, 32])
  %e1 = copy Ap[i, 0] -> S @BLOCK
  %e2 = copy Sr[t, 0] -> R @THREAD over (t: THREAD 32) after [%e1]
  %e3 = copy R -> Br[t, 0] @THREAD over (t: THREAD 32) after [%e2[t]]
  yield %e3[:]
}
)";

Params chain_inputs() {
    return {{"A", integers(ir::DType::F32, {64, 32}, 1)}, {"B", poison(ir::DType::F32, {64, 32})}};
}

TEST(EventSim, CopyChainIsCorrectUnder300Seeds) {
    const auto p = parse(kChain);
    EventSimulator sim(p);
    const Params in = chain_inputs();
    for (uint64_t s = 0; s < 300; ++s) {
        Outcome r = simulate_on(sim, in, seeded(s));
        ASSERT_TRUE(r.report.races.empty()) << "seed " << s << ": " << r.report.races[0].what;
        ASSERT_TRUE(equal(*r.params.at("B"), *in.at("A"))) << "seed " << s;
        EXPECT_EQ(r.report.instances_run, 1 + 2 * (1 + 32 + 32 + 1));
    }
}

TEST(EventSim, CopyChainWithoutTheSharedMemoryEdgeRaces) {
    // Registers read the shared tile before the global -> shared copy completes.
    const auto p = parse(edit(kChain, " after [%e1]", ""));
    const Params in = chain_inputs();
    auto f = first_failure(p, in, "B", *in.at("A"), 300);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->seed, 0u);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find("read poisoned S["), std::string::npos) << f->what;
    EXPECT_NE(f->what.find("(written by %e1 (i = "), std::string::npos) << f->what;
}

TEST(EventSim, CopyChainWithoutTheRegisterEdgeRaces) {
    const auto p = parse(edit(kChain, " after [%e2[t]]", ""));
    const Params in = chain_inputs();
    auto f = first_failure(p, in, "B", *in.at("A"), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find("%e3 (i = "), std::string::npos) << f->what;
    // %e3 starts first and reads the row while %e2 fills it.
    EXPECT_NE(f->what.find("read R[0] (overwritten by %e2 (i = "), std::string::npos) << f->what;
}

TEST(EventSim, SequentialModeRunsInTextualOrderWithoutDelays) {
    // Textual order hides the missing edge; random schedules expose it (test above).
    const auto p = parse(edit(kChain, " after [%e1]", ""));
    EventSimulator sim(p);
    const Params in = chain_inputs();
    SimOptions o;
    o.sequential = true;
    for (uint64_t s = 0; s < 3; ++s) {
        o.seed = s;
        Outcome r = simulate_on(sim, in, o);
        EXPECT_TRUE(r.report.races.empty());
        EXPECT_TRUE(equal(*r.params.at("B"), *in.at("A")));
    }
}

TEST(EventSim, SequentialModeRunsALoopBodyAtTheLoop) {
    // %e2 is not ordered after the loop: in textual order it runs last, so O holds B.
    const auto p = parse(R"(event_program order
alloc A : GLOBAL f32[4] param read
alloc B : GLOBAL f32[4] param read
alloc O : GLOBAL f32[4] param write
alloc T : GLOBAL f32[4]
%e0 = for k in [2] @BLOCK {
  %e1 = copy A -> T @BLOCK
  yield %e1
}
%e2 = copy B -> T @BLOCK
%e3 = copy T -> O @BLOCK after [%e0, %e2]
)");
    const Params in{{"A", integers(ir::DType::F32, {4}, 11)},
                    {"B", integers(ir::DType::F32, {4}, 12)},
                    {"O", poison(ir::DType::F32, {4})}};
    EventSimulator sim(p);
    SimOptions o;
    o.sequential = true;
    Outcome r = simulate_on(sim, in, o);
    EXPECT_TRUE(r.report.races.empty());
    EXPECT_TRUE(equal(*r.params.at("O"), *in.at("B")));
    EXPECT_TRUE(first_failure(p, in, "O", *in.at("B"), 100)); // the missing edge
}

// A sequential loop from a warp pfor after vectorization: the loop and every op of its body run
// over the warps, so each warp's loop instance runs its own warp's body ops, not all four.
TEST(EventSim, VectorizedLoopRunsItsBodyOnTheLoopsProcessor) {
    const auto p = parse(R"(event_program loop_in_pfor
leaf add_leaf(Y: rw f32[16], X: read f32[16]) {
  add(Y, Y, X)
}
alloc X : GLOBAL f32[4, 16] param read
alloc Y : GLOBAL f32[4, 16] param rw
part Xp = blocks(X, [_, 16])
part Yp = blocks(Y, [_, 16])
%e0 = join @HOST
alloc A : REGISTER f32[16] over (w: WARP 4)
alloc B : REGISTER f32[16] over (w: WARP 4)
%e2 = copy Yp[w, 0] -> A @WARP over (w: WARP 4) after [%e0]
%e3 = for k in [3] @WARP over (w: WARP 4) after [%e0] {
  %e4 = copy Xp[w, 0] -> B @WARP over (w: WARP 4) after [%e0]
  %e5 = call add_leaf(A, B) @WARP over (w: WARP 4) after [%e4[w], %e2[w]]
  yield %e5[w]
}
%e6 = copy A -> Yp[w, 0] @WARP over (w: WARP 4) after [%e0, %e3[w]]
)");
    const Params in{{"X", integers(ir::DType::F32, {4, 16}, 16)},
                    {"Y", integers(ir::DType::F32, {4, 16}, 17)}};
    HostTensor want = *in.at("Y");
    for (int64_t i = 0; i < want.size(); ++i)
        want.data[i] += 3 * in.at("X")->data[i];
    EXPECT_FALSE(first_failure(p, in, "Y", want, 300));
    EventSimulator sim(p);
    // join, 4 copies, 4 loop starts and ends, 4 x 3 x (copy, call, yield), 4 copies
    EXPECT_EQ(simulate_on(sim, in, seeded(0)).report.instances_run, 1 + 4 + 8 + 36 + 4);
}

// Four blocks each write a quarter; the host copies the whole after all of them (broadcast).
const std::string kBroadcast = R"(event_program bcast
alloc X : GLOBAL f32[8, 4] param read
alloc Y : GLOBAL f32[8, 4] param write
alloc T : GLOBAL f32[8, 4]
part Xp = blocks(X, [2, 4])
part Tp = blocks(T, [2, 4])
%e0 = pfor i in [4] @BLOCK {
  %e1 = copy Xp[i, 0] -> Tp[i, 0] @BLOCK
  yield %e1
}
%e2 = join @HOST after [%e0[:]]
%e3 = copy T -> Y @HOST after [%e2]
)";

TEST(EventSim, PforWithBroadcastJoin) {
    const auto p = parse(kBroadcast);
    EventSimulator sim(p);
    const Params in{{"X", integers(ir::DType::F32, {8, 4}, 2)},
                    {"Y", poison(ir::DType::F32, {8, 4})}};
    for (uint64_t s = 0; s < 300; ++s) {
        Outcome r = simulate_on(sim, in, seeded(s));
        ASSERT_TRUE(r.report.races.empty()) << r.report.races[0].what;
        ASSERT_TRUE(equal(*r.params.at("Y"), *in.at("X"))) << "seed " << s;
    }
    // Waiting for one block only.
    const auto bad = parse(edit(kBroadcast, "%e0[:]", "%e0[1]"));
    auto f = first_failure(bad, in, "Y", *in.at("X"), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find("%e3 read poisoned T["), std::string::npos) << f->what;
}

// A pipelined reduction: iteration k stages row k of A in shared memory (2 buffers) and adds it
// into a register accumulator. `%e2@-2` is the WAR edge (stage k mod 2 is free once iteration
// k - 2's add has read it), `%e2@-1` the accumulator chain.
const std::string kPipe = R"(event_program pipe
leaf zero(r: write f32[16]) {
  fill(r, 0.0)
}
leaf accumulate(a: rw f32[16], s: read f32[16]) {
  add(a, a, s)
}
alloc A : GLOBAL f32[8, 16] param read
alloc O : GLOBAL f32[16] param write
part Ar = blocks(A, [_, 16])
alloc acc : REGISTER f32[16]
%z = call zero(acc) @BLOCK
%e0 = for k in [8] @BLOCK pipeline = 2 after [%z] {
  alloc S : SHARED f32[16] stages 2 on k
  %e1 = copy Ar[k, 0] -> S @BLOCK after [%e2@-2]
  %e2 = call accumulate(acc, S) @BLOCK after [%e1, %e2@-1]
  yield %e2
}
%e3 = copy acc -> O @BLOCK after [%e0]
)";

Params pipe_inputs() {
    return {{"A", integers(ir::DType::F32, {8, 16}, 3)}, {"O", poison(ir::DType::F32, {16})}};
}

TEST(EventSim, PipelinedLoopWithStagesAndDistanceRefs) {
    const auto p = parse(kPipe);
    const Params in = pipe_inputs();
    const HostTensor want = column_sums(*in.at("A"));
    EXPECT_FALSE(first_failure(p, in, "O", want, 300));
}

TEST(EventSim, PipelinedLoopWithoutTheWarRefRaces) {
    const auto p = parse(edit(kPipe, " after [%e2@-2]", ""));
    const Params in = pipe_inputs();
    auto f = first_failure(p, in, "O", column_sums(*in.at("A")), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find(" S["), std::string::npos) << f->what;
}

TEST(EventSim, PipelinedLoopWithoutTheAccumulatorChainRaces) {
    const auto p = parse(edit(kPipe, ", %e2@-1]", "]"));
    const Params in = pipe_inputs();
    auto f = first_failure(p, in, "O", column_sums(*in.at("A")), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find(" acc["), std::string::npos) << f->what;
}

// Reduce copy-outs (`copy add`) are atomic and commute: four blocks fold into one tensor with no
// order between them; a plain read while they run races.
const std::string kReduce = R"(event_program reduce
alloc X : GLOBAL f32[4, 8] param read
alloc R : GLOBAL f32[8] param rw
alloc O : GLOBAL f32[8] param write
part Xr = blocks(X, [_, 8])
%e0 = pfor i in [4] @BLOCK {
  %e1 = copy add Xr[i, 0] -> R @BLOCK
  yield %e1
}
%e2 = copy R -> O @HOST after [%e0[:]]
)";

TEST(EventSim, ReductionsCommuteButRaceWithReads) {
    const Params in{{"X", integers(ir::DType::F32, {4, 8}, 13)},
                    {"R", integers(ir::DType::F32, {8}, 14)},
                    {"O", poison(ir::DType::F32, {8})}};
    HostTensor want = *in.at("R");
    for (int64_t r = 0; r < 4; ++r)
        for (int64_t c = 0; c < 8; ++c)
            want.data[c] += in.at("X")->data[r * 8 + c];
    EXPECT_FALSE(first_failure(parse(kReduce), in, "O", want, 300));
    // Without the broadcast the copy may run before, after or during the reductions.
    const auto racy = parse(edit(kReduce, " after [%e0[:]]", ""));
    EventSimulator sim(racy);
    std::string race;
    for (uint64_t s = 0; s < 300 && race.empty(); ++s) {
        Outcome r = simulate_on(sim, in, seeded(s));
        if (!r.report.races.empty())
            race = r.report.races.front().what;
    }
    std::cout << race << "\n";
    EXPECT_NE(race.find("%e2 read poisoned R["), std::string::npos) << race;
    EXPECT_NE(race.find("being reduced into by %e1 (i = "), std::string::npos) << race;
}

TEST(EventSim, StagedBufferIsIndexedByIterationModStages) {
    // With one buffer, the @-2 WAR edge no longer protects the tile the next iteration fills.
    const auto p = parse(edit(kPipe, " stages 2 on k", ""));
    const Params in = pipe_inputs();
    auto f = first_failure(p, in, "O", column_sums(*in.at("A")), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    // An ordinary (not pipelined) loop with the same single buffer is correct: iterations are
    // serialized by their yields.
    const auto serial = parse(edit(edit(kPipe, " stages 2 on k", ""), " pipeline = 2", ""));
    EXPECT_FALSE(first_failure(serial, in, "O", column_sums(*in.at("A")), 100));
}

TEST(EventSim, DeadlockNamesTheBlockedInstancesAndTheirRefs) {
    const auto p = parse(R"(event_program stuck
alloc A : GLOBAL f32[4] param read
alloc B : GLOBAL f32[4] param write
%e0 = for k in [2] @BLOCK {
  %e1 = copy A -> B @BLOCK after [%e0]
  yield %e1
}
)");
    Params params{{"A", integers(ir::DType::F32, {4}, 4)}, {"B", poison(ir::DType::F32, {4})}};
    auto r = simulate(p, params, SimOptions{});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.errors().front().message,
              "stuck: deadlock: 3 of 4 event instances can never run; %e1 (k = 0) waits on %e0 "
              "(%e0 is not complete); the yield of %e0 (k = 0) waits on %e1 (%e1 (k = 0) is "
              "not complete)");
}

// The message a program gets instead of a report.
std::string error_of(const std::string& text) {
    const auto p = parse(text);
    Params params{{"A", integers(ir::DType::F32, {4, 4}, 15)},
                  {"B", poison(ir::DType::F32, {4, 4})}};
    auto r = simulate(p, params, SimOptions{});
    return r.ok() ? "no error" : r.errors().front().str();
}

TEST(EventSim, UnresolvableProgramsAreDiagnostics) {
    const std::string head = "event_program bad\n"
                             "alloc A : GLOBAL f32[4, 4] param read\n"
                             "alloc B : GLOBAL f32[4, 4] param write\n"
                             "part Ar = blocks(A, [1, 4])\n";
    EXPECT_EQ(error_of(head + "%e1 = copy A -> B @BLOCK after [%nope]\n"),
              "test.ev:5:1: error: reference %nope: no enclosing block defines %nope");
    EXPECT_EQ(error_of(head + "%e0 = pfor i in [4] @BLOCK {\n"
                              "  %e1 = copy A -> B @BLOCK\n"
                              "  yield %e1\n"
                              "}\n"
                              "%e2 = copy A -> B @BLOCK after [%e0[4]]\n"),
              "test.ev:9:1: error: reference %e0[4]: index 4 is outside dimension i of extent 4");
    EXPECT_EQ(error_of(head + "%e1 = copy A -> B @BLOCK after [%e1@-1]\n"),
              "test.ev:5:1: error: reference %e1@-1: %e1 is not defined in the body of a for");
    EXPECT_EQ(error_of(head + "%e1 = copy Ar[0, 0] -> B @BLOCK\n"),
              "test.ev:5:1: error: %e1 copies Ar[0, 0] of shape [1, 4] to B of shape [4, 4]");
    EXPECT_EQ(error_of(head + "alloc R : REGISTER f32[4, 4] over (t: THREAD 2)\n"
                              "%e1 = copy A -> R @BLOCK\n"),
              "test.ev:6:1: error: %e1 uses R over t, which it does not run over");
    EXPECT_EQ(error_of(head + "%e1 = copy Ar[4, 0] -> B @BLOCK\n"),
              "test.ev:5:1: error: %e1: Ar: piece index [4, 0] is outside the partition grid "
              "[4, 1]");
}

TEST(EventSim, MemoryNoneTensorsAreStorageUnlessRejected) {
    const std::string text = R"(event_program none
alloc A : GLOBAL f32[4] param read
alloc B : GLOBAL f32[4] param write
alloc N : NONE f32[4]
%e1 = copy A -> N @BLOCK
%e2 = copy N -> B @BLOCK after [%e1]
)";
    const auto p = parse(text);
    EventSimulator sim(p);
    const Params in{{"A", integers(ir::DType::F32, {4}, 5)}, {"B", poison(ir::DType::F32, {4})}};
    Outcome r = simulate_on(sim, in, seeded(0));
    EXPECT_TRUE(equal(*r.params.at("B"), *in.at("A")));
    SimOptions o;
    o.reject_none = true;
    Params params = shared_copies(in);
    auto rejected = simulate(p, params, o);
    ASSERT_FALSE(rejected.ok());
    EXPECT_EQ(rejected.errors().front().str(),
              "test.ev:5:1: error: %e1 touches N, a memory NONE tensor (copy elimination must "
              "remove its uses)");
}

// alloc-smem's reuse: X and Y share bytes; Y's first writer waits for X's last reader.
const std::string kAliased = R"(event_program aliased
alloc A : GLOBAL f32[16] param read
alloc B : GLOBAL f32[16] param read
alloc O : GLOBAL f32[16] param write
alloc P : GLOBAL f32[16] param write
%e0 = pfor i in [1] @BLOCK {
  alloc X : SHARED f32[16] offset 0
  alloc Y : SHARED f32[16] offset 32
  %e1 = copy A -> X @BLOCK
  %e2 = copy X -> O @BLOCK after [%e1]
  %e3 = copy B -> Y @BLOCK after [%e2]
  %e4 = copy Y -> P @BLOCK after [%e3]
  %e5 = join @BLOCK after [%e2, %e4]
  yield %e5
}
)";

TEST(EventSim, AliasedSharedMemoryReuseMustBeOrdered) {
    const Params in{{"A", integers(ir::DType::F32, {16}, 9)},
                    {"B", integers(ir::DType::F32, {16}, 10)},
                    {"O", poison(ir::DType::F32, {16})},
                    {"P", poison(ir::DType::F32, {16})}};
    EXPECT_FALSE(first_failure(parse(kAliased), in, "O", *in.at("A"), 300));
    EXPECT_FALSE(first_failure(parse(kAliased), in, "P", *in.at("B"), 300));
    // Without the reuse edge Y's copy overwrites the upper half of X while X is written or read.
    auto f = first_failure(parse(edit(kAliased, "-> Y @BLOCK after [%e2]", "-> Y @BLOCK")), in, "O",
                           *in.at("A"), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find("its shared memory"), std::string::npos) << f->what;
    // Apart (no overlap), the same program has no race.
    EXPECT_FALSE(first_failure(parse(edit(edit(kAliased, "-> Y @BLOCK after [%e2]", "-> Y @BLOCK"),
                                          "offset 32", "offset 64")),
                               in, "O", *in.at("A"), 300));
}

// A register copy of a tile of X, masked: `mask` sees X's coordinates through `mirrors`.
TEST(EventSim, MaskSeesTheCoordinatesOfTheMirroredTensor) {
    const auto p = parse(R"(event_program masked
leaf causal(S: rw f32[4, 4]) {
  mask(S, 0, 0, 6, 1)
}
alloc X : GLOBAL f32[8, 8] param rw
part Xp = blocks(X, [4, 4])
%e0 = pfor (i, j) in [2, 2] @BLOCK {
  alloc L : REGISTER f32[4, 4] mirrors Xp[i, j]
  %e1 = copy Xp[i, j] -> L @BLOCK
  %e2 = call causal(L) @BLOCK after [%e1]
  %e3 = copy L -> Xp[i, j] @BLOCK after [%e2]
  yield %e3
}
)");
    const Params in{{"X", integers(ir::DType::F32, {8, 8}, 6)}};
    HostTensor want = *in.at("X");
    for (int64_t r = 0; r < 8; ++r)
        for (int64_t c = 0; c < 8; ++c)
            if (c >= 6 || c > r)
                want.data[r * 8 + c] = -INFINITY;
    EXPECT_FALSE(first_failure(p, in, "X", want, 50));
}

// GEMM 128x256x128 after vectorization and pipelining: two consumer warpgroups of 4 warps of 32
// threads, each thread owning a 2x64 accumulator fragment; A and B tiles staged twice in shared
// memory by block-level copies.
const std::string kGemm = R"(event_program gemm
sizes K = 128, M = 128, N = 256
leaf zero(C: write f32[2, 64]) {
  fill(C, 0.0)
}
leaf mma_leaf(C: rw f32[2, 64], A: read bf16[2, 64], B: read bf16[64, 64]) {
  mma(C, A, B)
}
alloc C : GLOBAL f32[128, 256] param write
alloc A : GLOBAL bf16[128, 128] param read
alloc B : GLOBAL bf16[128, 256] param read
part Ak = blocks(A, [128, 64])
part Bk = blocks(B, [64, 256])
%e0 = pfor (i, j) in [1, 1] @BLOCK {
  alloc acc : REGISTER f32[2, 64] over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  %e1 = call zero(acc) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32)
  %e2 = for k in [2] @BLOCK pipeline = 2 after [%e1[:, :, :]] {
    alloc As : SHARED bf16[128, 64] stages 2 on k
    alloc Bs : SHARED bf16[64, 256] stages 2 on k
    %e3 = copy Ak[0, k] -> As @BLOCK after [%e5[:, :, :]@-2]
    %e4 = copy Bk[k, 0] -> Bs @BLOCK after [%e5[:, :, :]@-2]
    part Ag = blocks(As, [64, 64])
    part Aw = mma(Ag[g, 0], lhs, WARP)
    part At = mma(Aw[w], lhs, THREAD)
    part Bw = mma(Bs, rhs, WARP)
    part Bt = mma(Bw[w], rhs, THREAD)
    %e5 = call mma_leaf(acc, At[t], Bt[t]) @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e3, %e4, %e5[g, w, t]@-1]
    yield %e5[:, :, :]
  }
  part Cg = blocks(C, [64, 256])
  part Cw = mma(Cg[g, 0], acc, WARP)
  part Ct = mma(Cw[w], acc, THREAD)
  %e6 = copy acc -> Ct[t] @THREAD over (g: WARPGROUP 2, w: WARP 4, t: THREAD 32) after [%e2]
  yield %e6[:, :, :]
}
)";

TEST(EventSim, GemmCallsMmaLeavesCorrectlyUnder200SeedsQuickly) {
    const auto p = parse(kGemm);
    EventSimulator sim(p);
    const Params in = gemm_inputs(128);
    const HostTensor want = matmul(*in.at("A"), *in.at("B"));
    const std::clock_t t0 = std::clock(); // CPU time: the test machine is shared
    int64_t instances = 0;
    for (uint64_t s = 0; s < 200; ++s) {
        Outcome r = simulate_on(sim, in, seeded(s));
        ASSERT_TRUE(r.report.races.empty()) << r.report.races[0].what;
        ASSERT_TRUE(equal(*r.params.at("C"), want)) << "seed " << s;
        instances = r.report.instances_run;
    }
    const double ms = 1000.0 * double(std::clock() - t0) / CLOCKS_PER_SEC / 200;
    std::cout << "gemm 128x256x128: " << instances << " instances, " << ms << " ms CPU per run\n";
#ifdef NDEBUG // the budget is for optimized builds (Debug and sanitizer builds run 5-10x slower)
    EXPECT_LT(ms, 100.0);
#endif
}

TEST(EventSim, GemmWithSingleBufferedTilesRaces) {
    // The @-2 WAR refs protect a tile only if iterations k and k + 1 use different buffers.
    const auto p = parse(edit(edit(kGemm, " stages 2 on k", ""), " stages 2 on k", ""));
    const Params in = gemm_inputs(128);
    auto f = first_failure(p, in, "C", matmul(*in.at("A"), *in.at("B")), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
}

TEST(EventSim, GemmWithoutTheAccumulatorChainRaces) {
    const auto p = parse(edit(kGemm, ", %e5[g, w, t]@-1]", "]"));
    const Params in = gemm_inputs(128);
    auto f = first_failure(p, in, "C", matmul(*in.at("A"), *in.at("B")), 300);
    ASSERT_TRUE(f);
    std::cout << *f << "\n";
    EXPECT_NE(f->what.find(" acc["), std::string::npos) << f->what;
}

} // namespace
} // namespace kiln::interp
